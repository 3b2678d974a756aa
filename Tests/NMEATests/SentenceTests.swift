import TestSupport
import Testing

@testable import NMEA

private func decode(_ body: String) throws -> Sentence {
  try Sentence(parsing: withChecksum(body))
}

private func rejection(_ body: String) -> FieldError? {
  do {
    _ = try Sentence(parsing: withChecksum(body))
    return nil
  } catch {
    if case .malformed(let fieldError) = error { return fieldError }
    return nil
  }
}

@Suite struct SentenceTests {
  @Test func gga() throws {
    let gga = try #require(
      try decode("$GPGGA,113258.25,3238.9148,N,10822.4466,W,2,08,1.1,1577.4,M,-24.6,M,3.2,0138").payload(as: GGA.self))
    #expect(gga.talker == .gps)
    #expect(gga.time == TimeOfDay(hour: 11, minute: 32, second: 58, microsecond: 250_000))
    #expect(abs(gga.latitude! - (32 + 38.9148 / 60)) < 1e-12)
    #expect(abs(gga.longitude! + (108 + 22.4466 / 60)) < 1e-12)
    #expect(gga.quality == .differential)
    #expect(gga.satellitesUsed == 8)
    #expect(gga.hdop == 1.1)
    #expect(gga.altitude == 1577.4)
    #expect(gga.geoidSeparation == -24.6)
    #expect(gga.differentialAge == 3.2)
    #expect(gga.differentialStation == 138)
  }

  /// UTC inserts leap seconds as 23:59:60, and receivers send them so; a second 60 at any
  /// other minute is no time at all.
  @Test func aLeapSecondIsATimeOnlyAt235960() throws {
    let leap = try #require(
      try decode("$GPGGA,235960.50,3238.9148,N,10822.4466,W,1,08,1.1,1577.4,M,-24.6,M,,").payload(as: GGA.self)?.time)
    #expect(leap.isLeapSecond && leap.description == "23:59:60.500")
    #expect(TimeOfDay(hour: 23, minute: 59, second: 59)?.isLeapSecond == false)
    #expect(rejection("$GPGGA,123060.00,3238.9148,N,10822.4466,W,1,08,1.1,1577.4,M,-24.6,M,,")?.problem == .outOfRange)
  }

  @Test func emptyFieldsAreAbsentNeverZero() throws {
    let gga = try #require(try decode("$GNGGA,,,,,,0,,,,M,,M,,").payload(as: GGA.self))
    #expect(gga.talker == .multiple)
    #expect(gga.time == nil && gga.latitude == nil && gga.longitude == nil)
    #expect(gga.satellitesUsed == nil && gga.hdop == nil && gga.altitude == nil && gga.geoidSeparation == nil)
    #expect(gga.quality == .invalid)
  }

  @Test func impossibleValuesRejectTheWholeSentence() {
    #expect(rejection("$GPGGA,113258,9138.9148,N,10822.4466,W,1,08,1.1,1577.4,M,-24.6,M,,")?.name == "latitude")
    #expect(rejection("$GPGGA,113258,3260.0000,N,10822.4466,W,1,08,1.1,1577.4,M,-24.6,M,,")?.name == "latitude")
    #expect(rejection("$GPGGA,113258,3238.9148,N,18122.4466,W,1,08,1.1,1577.4,M,-24.6,M,,")?.name == "longitude")
    #expect(rejection("$GPGGA,243258,3238.9148,N,10822.4466,W,1,08,1.1,1577.4,M,-24.6,M,,")?.name == "time")
    #expect(
      rejection("$GPGGA,113258,3238.9148,X,10822.4466,W,1,08,1.1,1577.4,M,-24.6,M,,")?.name == "latitude hemisphere")
    #expect(rejection("$GPGGA,113258,3238.9148,,10822.4466,W,1,08,1.1,1577.4,M,-24.6,M,,")?.problem == .incompletePair)
    #expect(rejection("$GPGGA,113258,3238.9148,N,10822.4466,W,1,08,1.1,15x7.4,M,-24.6,M,,")?.name == "altitude")
    #expect(rejection("$GPRMC,113258,A,3238.9148,N,10822.4466,W,005.3,247.1,311322,009.3,E")?.name == "date")
    #expect(rejection("$GPGGA,113258,3238.9148")?.problem == .missing)
    // A direction is named after the value it qualifies (the name is joined only for the
    // error).
    let variation = rejection("$GPRMC,113258,A,3238.9148,N,10822.4466,W,005.3,247.1,311224,009.3,X")
    #expect(variation?.name == "magnetic variation direction" && variation?.index == 10)
    #expect(
      rejection("$GPRMC,113258,A,3238.9148,N,10822.4466,W,005.3,247.1,311224,009.3,EW")?.problem == .invalidFormat)
    #expect(rejection("$GPHDG,98.3,1.5,Q,12.6,W")?.name == "deviation direction")
    #expect(rejection("$GPDTM,W84,,0.1,S,0.2,N,0.0,W84")?.name == "longitude offset direction")
  }

  /// A value unknown to an informational field (a navigational status, a mode letter,
  /// a compass's status) costs that field only: the sentence, with its position, time and
  /// speed, is kept, and the decoder counts the field as ignored. An RMC with status `X`
  /// was rejected whole.
  @Test func anUnknownInformationalValueCostsTheFieldOnly() throws {
    let rmc = try #require(
      try decode("$GPRMC,120000.00,A,5230.0000,N,01322.0000,E,1.5,90.0,011226,,,A,X").payload(as: RMC.self))
    #expect(rmc.navigationalStatus == nil && rmc.mode == .autonomous && rmc.isValid == true)
    #expect(rmc.latitude != nil && rmc.speed != nil && rmc.time != nil)
    let mode = try #require(
      try decode("$GPRMC,120001.00,A,5230.0010,N,01322.0000,E,1.5,90.0,011226,,,Q,S").payload(as: RMC.self))
    #expect(mode.mode == nil && mode.navigationalStatus == .safe)
    #expect(try decode("$GPGSA,Z,3,01,02,03,04,,,,,,,,,1.8,0.9,1.5").payload(as: GSA.self)?.isAutomatic == nil)
    // VTG's mode is all that vouches for its speed: an unknown one is no informational field.
    #expect(rejection("$GPVTG,90.0,T,,M,1.5,N,2.8,K,Q")?.name == "mode")
    #expect(try decode("$GPGLL,5230.0020,N,01322.0000,E,120002.00,A,Q").payload(as: GLL.self)?.mode == nil)
    #expect(
      try decode("$GNGNS,120003.00,5230.0030,N,01322.0000,E,AA,10,0.9,35.0,40.0,,,X").payload(as: GNS.self)?
        .navigationalStatus == nil)
    let compass = try #require(try decode("$PTNTHTM,14223,Z,169,N,-43,Q,13641,2454").payload(as: PTNTHTM.self))
    #expect(compass.heading != nil && compass.magnetometerStatus == nil && compass.rollStatus == nil)
    #expect(compass.pitchStatus == UInt8(ascii: "N"))
    // Through the decoder: nothing rejected, every field counted.
    let lines = [
      "$GPRMC,120000.00,A,5230.0000,N,01322.0000,E,1.5,90.0,011226,,,A,X",
      "$GPRMC,120001.00,A,5230.0010,N,01322.0000,E,1.5,90.0,011226,,,Q,S",
      "$GPGSA,Z,3,01,02,03,04,,,,,,,,,1.8,0.9,1.5",
      "$GPGLL,5230.0020,N,01322.0000,E,120002.00,A,Q",
      "$GNGNS,120003.00,5230.0030,N,01322.0000,E,AA,10,0.9,35.0,40.0,,,X", "$PTNTHTM,14223,Z,169,N,-43,Q,13641,2454",
    ]
    var decoder = NMEADecoder()
    var fixes: [Fix] = []
    let handle: (DecoderEvent) -> Void = { event in if case .fix(let fix) = event { fixes.append(fix) } }
    decoder.decode(Array(lines.map { withChecksum($0) + "\r\n" }.joined().utf8), handle)
    decoder.finish(handle)
    #expect(decoder.statistics.totalRejected == 0 && decoder.statistics.sentences == 6)
    #expect(decoder.statistics.ignoredFields == 7)
    #expect(fixes.filter(\.hasPosition).count == 4, "\(fixes.map(\.timeOfDay))")
  }

  @Test func rmcWithNMEA41NavigationalStatus() throws {
    let rmc = try #require(
      try decode("$GNRMC,001031.00,A,4404.13993,N,12118.86023,W,0.146,,100117,,,A,V").payload(as: RMC.self))
    #expect(rmc.isValid == true)
    #expect(rmc.date == CalendarDate(year: 2017, month: 1, day: 10))
    #expect(abs(rmc.speed! - 0.146 * 1852 / 3600) < 1e-12)
    #expect(rmc.course == nil)
    #expect(rmc.magneticVariation == nil)
    #expect(rmc.mode == .autonomous)
    #expect(rmc.navigationalStatus == .notValid)
  }

  @Test func rmcMagneticVariationSignAndSentinel() throws {
    let west = try #require(
      try decode("$GPRMC,113258,A,3238.9148,N,10822.4466,W,005.3,247.1,181022,009.3,W").payload(as: RMC.self))
    #expect(west.magneticVariation == -9.3)
    let unknown = try #require(
      try decode(
        "$GPRMC,113938.50,A,3842.86006889,N,11705.43645510,W,0.011,46.405,231122,999.9000,E,D"
      ).payload(as: RMC.self))
    #expect(unknown.magneticVariation == nil)
    #expect(unknown.mode == .differential)
    #expect(unknown.date == CalendarDate(year: 2022, month: 11, day: 23))
  }

  @Test func gsaWithSystemIDAndDOPs() throws {
    let gsa = try #require(try decode("$GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47,2").payload(as: GSA.self))
    #expect(gsa.mode == .threeD)
    #expect(gsa.usedSatellites == [80, 71, 73, 79, 69])
    #expect(gsa.pdop == 1.83 && gsa.hdop == 1.09 && gsa.vdop == 1.47)
    #expect(gsa.constellation == .glonass)
    let old = try #require(try decode("$GPGSA,A,3,02,05,11,12,18,20,25,29,,,,,1.4,1.1,0.9").payload(as: GSA.self))
    #expect(old.constellation == nil && old.usedCount == 8 && old.vdop == 0.9)
  }

  @Test func gsvWithHexSignalID() throws {
    let gsv = try #require(try decode("$GBGSV,1,1,03,19,37,199,45,20,15,050,,46,70,310,38,B").payload(as: GSV.self))
    #expect(gsv.talker == .beidou && gsv.talker.constellation == .beidou)
    #expect(gsv.signalID == 11)
    #expect(gsv.satellitesInView == 3)
    #expect(gsv.satellites.map(\.id) == [19, 20, 46])
    #expect(gsv.satellites[1].snr == nil)
    #expect(gsv.satellites[1].elevation == 15)
  }

  @Test func gsvWithoutSignalIDAndShortLastGroup() throws {
    let gsv = try #require(try decode("$GPGSV,3,3,11,06,01,064,00,13,09,132,00,15,10,164,00").payload(as: GSV.self))
    #expect(gsv.signalID == nil && gsv.messageNumber == 3 && gsv.satellites.count == 3)
    #expect(gsv.satellites[0].snr == 0)
  }

  @Test func gnsAndVTGAndGLL() throws {
    let gns = try #require(
      try decode("$GNGNS,043539.00,4333.190206,N,00127.618380,E,AAAAN,14,1.3,250.8,50.0,,,V").payload(as: GNS.self))
    #expect(
      gns.mode == .autonomous && gns.satellitesUsed == 14 && gns.altitude == 250.8
        && gns.navigationalStatus == .notValid)
    let vtg = try #require(try decode("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A").payload(as: VTG.self))
    #expect(vtg.course == 54.7 && vtg.magneticCourse == 34.4 && abs(vtg.speed! - 5.5 * 1852 / 3600) < 1e-12)
    let oldVTG = try #require(try decode("$GPVTG,054.7,034.4,005.5,010.2").payload(as: VTG.self))
    #expect(oldVTG.course == 54.7 && oldVTG.magneticCourse == 34.4)
    let gll = try #require(try decode("$GPGLL,4916.45,N,12311.12,W,225444,A,A").payload(as: GLL.self))
    #expect(gll.isValid == true && abs(gll.latitude! - (49 + 16.45 / 60)) < 1e-12)
  }

  @Test func gstZDAHDTTXTDTMGBS() throws {
    let gst = try #require(
      try decode("$GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031").payload(as: GST.self))
    #expect(gst.latitudeError == 0.023 && gst.altitudeError == 0.031 && gst.orientation == 273.6)
    let zda = try #require(try decode("$GPZDA,160012.71,11,03,2004,-1,00").payload(as: ZDA.self))
    #expect(zda.date == CalendarDate(year: 2004, month: 3, day: 11) && zda.zoneOffsetMinutes == -60)
    let hdt = try #require(try decode("$HEHDT,274.07,T").payload(as: HDT.self))
    #expect(hdt.heading == 274.07)
    let txt = try #require(try decode("$GPTXT,01,01,02,ANTSTATUS=OK, short").payload(as: TXT.self))
    #expect(txt.text == "ANTSTATUS=OK, short" && txt.identifier == 2)
    let dtm = try #require(try decode("$GPDTM,W84,,0.0,N,0.0,E,0.0,W84").payload(as: DTM.self))
    #expect(dtm.localDatum == "W84" && dtm.latitudeOffset == 0)
    let gbs = try #require(try decode("$GPGBS,125027,23.43,M,13.91,M,34.01,M").payload(as: GBS.self))
    #expect(gbs.latitudeError == 23.43 && gbs.longitudeError == 13.91 && gbs.altitudeError == 34.01)
  }

  @Test func proprietaryAccuracyAndAltitudeSentences() throws {
    let pgrme = try #require(try decode("$PGRME,7.6,M,41.7,M,42.4,M").payload(as: PGRME.self))
    #expect(pgrme.horizontalError == 7.6 && pgrme.verticalError == 41.7 && pgrme.sphericalError == 42.4)
    #expect(try decode("$PGRME,,M,,M,,M").payload(as: PGRME.self)?.horizontalError == nil)
    #expect(throws: SentenceParseError.self) { try decode("$PGRME,7.6,F,41.7,M,42.4,M") }
    let pgrmz = try #require(try decode("$PGRMZ,246,f,3").payload(as: PGRMZ.self))
    #expect(abs(pgrmz.altitude! - 74.9808) < 1e-9 && pgrmz.dimension == 3)
    #expect(throws: SentenceParseError.self) { try decode("$PGRMZ,246,m,3") }
    let epe = try #require(try decode("$PSRFEPE,100542.000,A,0.7,6.82,10.69,0.0,180.0").payload(as: PSRFEPE.self))
    #expect(epe.isValid == true && epe.hdop == 0.7 && epe.horizontalError == 6.82 && epe.verticalError == 10.69)
    #expect(epe.time == TimeOfDay(hour: 10, minute: 5, second: 42))
    #expect(try decode("$PSRFEPE,074150.799,V,,,,,").payload(as: PSRFEPE.self)?.isValid == false)
    let pubx = try #require(
      try decode(
        "$PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0"
      ).payload(as: PUBX00.self))
    #expect(pubx.status == .standalone3D && pubx.ellipsoidalAltitude == 546.589 && pubx.coordinateDecimals == 6)
    #expect(pubx.horizontalAccuracy == 2.1 && pubx.verticalAccuracy == 2.0 && pubx.satellitesUsed == 9)
    #expect(abs(pubx.speed! - 0.007 / 3.6) < 1e-15 && pubx.course == 77.52 && pubx.climb == -0.007)
    #expect(throws: SentenceParseError.self) { try decode("$PUBX,00,081350.00,,,,,,XX,,,,,,,,,,,,") }
    // Other PUBX messages are not decoded here; PASHR's attitude form is.
    #expect(try decode("$PUBX,03,00") == .other(SentenceAddress("PUBX")))
    #expect(
      try decode("$PASHR,085335.000,224.19,T,-01.26,+00.83,+00.00,0.101,0.113,0.267,1,0").kind == .pashrAttitude,
      "PASHR's attitude form is a heading sentence")
    let pos = try #require(
      try decode("$PASHR,POS,0,03,183530.00,2037.76012,N,08704.07373,W,058.48,,359.4,000.0,+000.0,2.2,2.2,0.0,1.0,BQ00")
        .payload(as: PASHRPOS.self))
    #expect(pos.quality == .gps && pos.satellitesUsed == 3 && pos.ellipsoidalAltitude == 58.48 && pos.course == 359.4)
    #expect(pos.pdop == 2.2 && pos.hdop == 2.2 && pos.vdop == 0 && pos.speed == 0 && pos.coordinateDecimals == 5)
    #expect(try decode("$PASHR,POS,,00,183530.00,,,,,,,,,,,,,,").payload(as: PASHRPOS.self)?.quality == nil)
  }

  @Test func unknownAndProprietarySentencesPassThrough() throws {
    #expect(try decode("$PGRMM,WGS 84") == .other(SentenceAddress("PGRMM")))
    #expect(try decode("$GPXYZ,1,2,3") == .other(SentenceAddress("GPXYZ")))
    #expect(try decode("!AIVDM,1,1,,B,13`kvwO005wJnb2Lfo>@6@8d05,0") == .other(SentenceAddress("AIVDM")))
    #expect(SentenceAddress("PGRME").isProprietary)
  }

  @Test(arguments: ["GP", "GL", "GA", "GB", "BD", "GQ", "GI", "GN", "QZ", "XY"])
  func everyTalkerIsUnderstood(talker: String) throws {
    let gga = try #require(
      try decode("$\(talker)GGA,113258,3238.9148,N,10822.4466,W,1,08,1.1,1577.4,M,-24.6,M,,").payload(as: GGA.self))
    #expect(gga.talker.description == talker)
  }

  @Test func decimalParsingMatchesStrtod() {
    var generator = SeededRandom(seed: 3)
    for _ in 0..<20_000 {
      let digits = Int.random(in: 1...17, using: &generator)
      let point = Int.random(in: 0...digits, using: &generator)
      var text = ""
      for index in 0..<digits {
        if index == point && index > 0 { text += "." }
        text += String(Int.random(in: 0...9, using: &generator))
      }
      var bytes = Array(text.utf8)
      let parsed = bytes.withUnsafeMutableBufferPointer { buffer in
        DecimalDigits(UnsafeBufferPointer(buffer))!.value(UnsafeBufferPointer(buffer))
      }
      #expect(parsed == Double(text)!, "\(text)")
      // The one-pass reading of the common form agrees, and takes every number of up to
      // 15 digits.
      let plain = bytes.withUnsafeMutableBufferPointer { DecimalDigits.plainValue(UnsafeBufferPointer($0)) }
      if let plain { #expect(plain == Double(text)!, "\(text)") }
      if digits <= 15 { #expect(plain != nil, "\(text)") }
    }
    for text in [".", "-1", "+1", "1.2.3", "1e5", "12345678901234567", " 1", "1,"] {
      var bytes = Array(text.utf8)
      #expect(
        bytes.withUnsafeMutableBufferPointer { DecimalDigits.plainValue(UnsafeBufferPointer($0)) } == nil, "\(text)")
    }
  }

  /// The inline reading of a latitude or longitude gives what the full reading gives, to
  /// the bit, or leaves the field to it: on fields mostly of the common form and mostly
  /// not (digits and points in every place, signs, spaces, letters, too long, out of
  /// range), in both hemispheres and at every distance from the sentence's start.
  @Test func plainAnglesAreTheFullReadingsOfTheCommonForm() {
    var generator = SeededRandom(seed: 11)
    let alphabet = Array("0123456789.-+ A".utf8)
    var taken = 0
    for round in 0..<12_000 {
      var field: [UInt8]
      if round % 2 == 0 {
        // ddmm.mmmm or dddmm.mmmm with 0 to 12 decimals, now and then without a point.
        let degrees = Int.random(in: 2...3, using: &generator)
        let decimals = Int.random(in: 0...12, using: &generator)
        field = (0..<degrees + 2).map { _ in UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &generator) }
        if decimals > 0 || Bool.random(using: &generator) { field.append(UInt8(ascii: ".")) }
        field += (0..<decimals).map { _ in UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &generator) }
        if round % 10 == 0 {
          field[Int.random(in: 0..<field.count, using: &generator)] = alphabet.randomElement(using: &generator)!
        }
      } else {
        field = (0..<Int.random(in: 0...18, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
      }
      let text = String(decoding: field, as: UTF8.self)
      let address = ["$GPGLL", "$GPRMC,,A", "$GNGGA,123519", "$P"].randomElement(using: &generator)!
      for (isLatitude, hemisphere) in [(true, "N"), (true, "S"), (false, "E"), (false, "W")] {
        var bytes = Array("\(address),\(text),\(hemisphere),".utf8)
        let index = address.split(separator: ",", omittingEmptySubsequences: false).count - 1
        bytes.withUnsafeMutableBufferPointer { buffer in
          FieldReader.read(UnsafeBufferPointer(buffer)) { reader in
            let maximum: UInt64 = isLatitude ? 90 : 180
            let plain = reader.plainAngle(reader.raw(index), maximumDegrees: maximum)
            let full = try? reader.fullAngle(
              index, "angle", maximumDegrees: maximum, positive: UInt8(ascii: isLatitude ? "N" : "E"),
              negative: UInt8(ascii: isLatitude ? "S" : "W"))
            if let plain {
              taken += 1
              let signed = hemisphere == "N" || hemisphere == "E" ? plain : -plain
              #expect(full?.bitPattern == signed.bitPattern, "\(address) \(text) \(hemisphere)")
            } else if full != nil, field.count <= 16, address != "$P" {
              // Only more than 15 digits may leave a valid angle to the full reading.
              #expect(field.filter { $0 != UInt8(ascii: ".") }.count > 15, "\(address) \(text)")
            }
            let read = isLatitude ? try? reader.latitude(index) : try? reader.longitude(index)
            #expect(read?.bitPattern == full?.bitPattern, "\(address) \(text) \(hemisphere)")
          }
        }
      }
    }
    // A quarter of the fields is of the common form and in range.
    #expect(taken > 4_500)
  }

  /// The loop-free reading of one to three digits takes exactly the fields of one to
  /// three digits, with their values: every string of up to three bytes over digits,
  /// signs, a point, a space and a letter.
  @Test func shortIntegersAreExactlyTheShortDigitStrings() {
    let alphabet = Array("0123456789-+. A".utf8)
    var strings: [[UInt8]] = [[]]
    for length in 1...3 {
      strings += strings.filter { $0.count == length - 1 }.flatMap { prefix in alphabet.map { prefix + [$0] } }
    }
    #expect(strings.count == 1 + 15 + 225 + 3375)
    for bytes in strings {
      var copy = bytes
      let short = copy.withUnsafeMutableBufferPointer { FieldReader.shortInteger(UnsafeBufferPointer($0)) }
      let expected =
        bytes.isEmpty || bytes.contains { $0 < 0x30 || $0 > 0x39 } ? nil : Int(String(decoding: bytes, as: UTF8.self))
      #expect(short == expected, "\(String(decoding: bytes, as: UTF8.self))")
    }
  }
}
