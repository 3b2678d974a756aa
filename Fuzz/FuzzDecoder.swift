// libFuzzer entry point over the whole NMEA pipeline: framing, decoding and fix merging.
//
// Built by Fuzz/run together with the NMEA module's sources (one module, with Geodesy as
// a library beside it, so no SwiftPM plumbing): `swiftc -sanitize=fuzzer,address
// -parse-as-library`. Each input is decoded twice, whole and cut into pieces at positions
// taken from its own bytes, and the two results must agree: any chunking gives the same
// fixes, headings and counts. Every other input passes its sentences through too. A third decoder is
// fed the same pieces as a live source is, completing a cycle early at each piece's end
// when it can; that may split a cycle but never lose one or change what is framed.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = UnsafeRawBufferPointer(start: data, count: size)
  var options = NMEADecoder.Options()
  options.requiresChecksum = size % 2 == 0
  options.passesThrough = size % 3 == 0

  var whole = NMEADecoder(options: options)
  var wholeFixes: [Fix] = []
  var wholeHeadings: [HeadingReading] = []
  var wholeAccepted: [[UInt8]] = []
  var wholeRejections = 0
  let wholeHandle: (DecoderEvent) -> Void = { event in
    switch event {
    case .fix(let fix): wholeFixes.append(fix)
    case .heading(let reading): wholeHeadings.append(reading)
    case .accepted(let sentence, _): wholeAccepted.append(sentence)
    case .rejected: wholeRejections += 1
    case .sentence: break
    }
  }
  whole.decode(bytes, wholeHandle)
  whole.finish(wholeHandle)

  var pieces = NMEADecoder(options: options)
  var pieceFixes: [Fix] = []
  var pieceHeadings: [HeadingReading] = []
  var pieceAccepted: [[UInt8]] = []
  var pieceRejections = 0
  let handle: (DecoderEvent) -> Void = { event in
    switch event {
    case .fix(let fix): pieceFixes.append(fix)
    case .heading(let reading): pieceHeadings.append(reading)
    case .accepted(let sentence, _): pieceAccepted.append(sentence)
    case .rejected: pieceRejections += 1
    case .sentence: break
    }
  }
  var live = NMEADecoder(options: options)
  var offset = 0
  var step = 1
  while offset < size {
    let length = min(size - offset, step)
    let piece = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
    pieces.decode(piece, handle)
    live.decode(piece) { _ in }
    live.completeCycleIfEnded { _ in }
    offset += length
    step = Int(data[offset % size] % 17) + 1
  }
  pieces.finish(handle)
  live.finish { _ in }

  if wholeFixes != pieceFixes || wholeRejections != pieceRejections || whole.statistics != pieces.statistics
    || wholeHeadings != pieceHeadings || wholeAccepted != pieceAccepted
  {
    fatalError("chunking changed the result")
  }
  let framed = whole.statistics
  let liveFramed = live.statistics
  if liveFramed.sentences != framed.sentences || liveFramed.rejectedByReason != framed.rejectedByReason
    || liveFramed.lines != framed.lines || liveFramed.cycles < framed.cycles
  {
    fatalError("completing cycles early lost or changed something")
  }
  return 0
}
