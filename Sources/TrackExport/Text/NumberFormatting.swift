/// Fixed-point decimal text without Foundation's `String(format:)`, which is slow enough
/// to dominate `print --json` on large logs.
public func fixed(_ value: Double, _ decimals: Int) -> String {
  guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
  var scale: Double = 1
  for _ in 0..<decimals { scale *= 10 }
  let scaled = (abs(value) * scale).rounded()
  guard scaled < 9e18 else { return String(value) }
  let units = UInt64(scaled)
  let whole = units / UInt64(scale)
  let fraction = units % UInt64(scale)
  var text = value < 0 && units != 0 ? "-" : ""
  text += String(whole)
  if decimals > 0 {
    let digits = String(fraction)
    text += "." + String(repeating: "0", count: decimals - digits.count) + digits
  }
  return text
}
