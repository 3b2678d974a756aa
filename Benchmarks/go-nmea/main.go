// A peer for the benchmark: adrianmo/go-nmea (Debian's golang-github-adrianmo-go-nmea-dev)
// parsing every line of a log from standard input, as an application using it would:
// each sentence parsed (checksum checked), the position of every GGA and RMC read.
// Prints the counts, so that the work cannot be optimised away.
package main

import (
	"bufio"
	"fmt"
	"os"

	nmea "github.com/adrianmo/go-nmea"
)

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<16), 1<<16)
	parsed, failed := 0, 0
	var latitudes float64
	for scanner.Scan() {
		line := scanner.Text()
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		sentence, err := nmea.Parse(line)
		if err != nil {
			failed++
			continue
		}
		parsed++
		switch s := sentence.(type) {
		case nmea.GGA:
			latitudes += s.Latitude + s.Longitude
		case nmea.RMC:
			latitudes += s.Latitude + s.Longitude
		}
	}
	fmt.Printf("%d parsed, %d failed, %f\n", parsed, failed, latitudes)
}
