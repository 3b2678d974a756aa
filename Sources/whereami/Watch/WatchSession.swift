import Dispatch
import LocationKit
import MotionKit

#if canImport(Glibc)
  import Glibc
#endif

/// Where a watch session shows what happens: the full screen (``ScreenDisplay``) or one
/// line per fix (``LineDisplay``). Every method is called on the session's queue.
protocol WatchDisplay: AnyObject {
  /// Whether the display stays up after the source ended, until the user quits.
  var waitsAtEnd: Bool { get }
  /// Starts showing; called before updates start.
  func begin(_ session: WatchSession)
  /// The model changed: a new fix (`location`), an error, or a message.
  func changed(_ model: WatchModel, fix location: Location?, error: LocationError?)
  /// The anchor alarm went off: `model` shows it (sound the bell, write the line).
  func alarm(_ model: WatchModel, _ event: RegionEvent)
  /// Stops showing and puts the terminal or the output in order; returns a failure of
  /// its own (output that could not be written). Called before the manager stops, so that
  /// a source slow to stop never keeps the terminal.
  func end() -> CommandError?
  /// Releases what must outlive the manager (the capture of standard error, which takes in
  /// what the source still reports while it stops). Called after the manager stopped.
  func close()
}

/// Runs `whereami watch`: a location manager feeds a ``WatchModel`` that a display shows,
/// until the user quits (`q`, Ctrl-C, SIGTERM), a final error, or the end of the source.
///
/// The manager's callbacks, the signal handlers, the keys and the display's timer all run
/// on one serial queue, so the model needs no lock.
final class WatchSession: LocationManagerDelegate, @unchecked Sendable {
  // @unchecked Sendable: every mutable property (`models`, `devices`, `selected`,
  // `failure`, `signalSources`) and the display are touched only on the source's queue,
  // the manager's serial callback queue, on which the signal handlers and the display's
  // sources also run; `run` reaches them through the source's run, on that queue.

  /// The SOURCE and its manager.
  let source: SourceRun
  /// The queue everything runs on.
  var queue: DispatchQueue { source.queue }
  /// What is shown: the selected device's model; read by the display on `queue`.
  var model: WatchModel { models[selected] ?? blank }
  /// One model per device ("" for a source that is one receiver; gpsd may have several),
  /// in the order they first reported, and the one shown.
  private var models: [String: WatchModel] = [:]
  /// Whether a signal ended the session (which then says its summary line).
  private var interrupted = false
  private var devices: [String] = []
  private var selected = ""
  /// What a device's view starts as (with the motion panel as it stands).
  private var blank: WatchModel
  private let display: any WatchDisplay
  private var failure: CommandError?
  private var isFinished: Bool { source.hasFinished }
  private var signalSources: [any DispatchSourceSignal] = []

  /// The motion source's manager and what it said, with `--motion`.
  private let motion: MotionManager?
  private var panel = MotionPanel()

  /// A session showing `source`'s locations on `display`, and `motion`'s readings when
  /// given.
  init(source: SourceRun, model: WatchModel, display: any WatchDisplay, motion: (any MotionSource)? = nil) {
    self.source = source
    blank = model
    // The anchor watch, from the first fix.
    model.anchor?.start(on: source.manager)
    self.display = display
    self.motion = motion.map { MotionManager(source: $0, callbackQueue: source.queue) }
    source.manager.delegate = self
    self.motion?.delegate = self
  }

  /// Runs until the end; throws the error that ended it, if any, once the terminal is
  /// restored.
  func run() throws(CommandError) {
    var failure: CommandError?
    // Only once the terminal is restored may a signal end the program at once.
    source.run(
      onSignal: { [self] _ in
        interrupted = !isFinished
        finish(nil)
      },
      starting: {
        display.begin(self)
        if let motion {
          motion.deviceMotionUpdateInterval = 0.2
          motion.accelerometerUpdateInterval = 0.2
          motion.start([.accelerometer, .deviceMotion, .heading, .shake])
        }
      },
      ending: {
        signalSources.forEach { $0.cancel() }
        // The terminal first, as for the position's source: a stop may take a moment.
        let displayFailure = display.end()
        motion?.stopUpdates()
        failure = self.failure ?? displayFailure
      },
      stopped: {
        display.close()
        // As print and the others end on a signal: one line per track, once the screen
        // is restored (on the alternate screen it would vanish with it).
        if interrupted {
          printError(
            LocationSession.summaryLine(
              devices.compactMap { key in
                models[key].map { ($0.fixCount, key.isEmpty ? source.name : key, $0.odometer) }
              }, from: source.name))
        }
      })
    if let failure { throw failure }
  }

  /// Calls `handler` on the queue when `signalNumber` arrives, instead of its default
  /// action (for the display's own signals; SIGINT and SIGTERM go through
  /// ``Interrupts``). Call on the queue.
  func onSignal(_ signalNumber: Int32, _ handler: @escaping @Sendable () -> Void) {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
    source.setEventHandler(handler: handler)
    source.resume()
    signalSources.append(source)
  }

  /// Ends the session (once): `failure` is what it ended with, `nil` for a normal end.
  /// Call on the queue.
  func finish(_ failure: CommandError?) {
    guard !isFinished else { return }
    self.failure = failure
    source.finish()
  }

  /// Shows a line that something wrote on standard error. Call on the queue.
  func note(_ message: String) {
    guard !isFinished else { return }
    if models.isEmpty { _ = register(nil) }
    for key in devices { models[key]!.note(message, at: SystemClock.wall()) }
    display.changed(model, fix: nil, error: nil)
  }

  func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?) {
    guard !isFinished else { return }
    source.answered()
    let zone = location.timestamp.flatMap { LocalZone.system(at: $0.secondsSinceEpoch) }
    // Without a position, the anchor is where the boat was at the first fix: for every
    // device's view, and those yet to report.
    if blank.anchor?.learnPosition(from: manager) == true {
      for key in devices { _ = models[key]!.anchor?.learnPosition(from: manager) }
    }
    let device = register(location.device)
    models[device]!.add(location, at: SystemClock.wall(), zone: zone)
    // The screen shows the selected device (and redraws from `model`); a line display
    // prints every device's fixes, each with its own distance.
    display.changed(models[device]!, fix: location, error: nil)
  }

  /// The model's key for `device`, made on first sight; the first device is shown first.
  private func register(_ device: String?) -> String {
    let key = device ?? ""
    if models[key] == nil {
      var fresh = blank
      fresh.device = device
      models[key] = fresh
      devices.append(key)
      if devices.count == 1 { selected = key }
      for index in devices.indices { models[devices[index]]!.devices = (index + 1, devices.count) }
    }
    return key
  }

  func locationManager(
    _ manager: LocationManager, didDetermineState state: RegionState, for region: Region, event: RegionEvent
  ) {
    guard !isFinished else { return }
    let device = register(event.device)
    guard models[device]!.anchor?.handle(event) == true else {
      display.changed(models[device]!, fix: nil, error: nil)
      return
    }
    display.alarm(models[device]!, event)
    display.changed(models[device]!, fix: nil, error: nil)
  }

  func locationManager(_ manager: LocationManager, monitoringDidFailFor region: Region?, withError error: LocationError)
  {
    note("\(error)")
  }

  /// Acknowledges the anchor alarm (key `a`) on every device's view. Call on the queue.
  func acknowledgeAlarm() {
    for key in devices { models[key]!.anchor?.acknowledge() }
    display.changed(model, fix: nil, error: nil)
  }

  /// Shows the next device (key `d`), when the source has several. Call on the queue.
  func showNextDevice() {
    guard devices.count > 1, let index = devices.firstIndex(of: selected) else { return }
    selected = devices[(index + 1) % devices.count]
    display.changed(model, fix: nil, error: nil)
  }

  func locationManager(_ manager: LocationManager, didUpdateHeading heading: Heading) {
    guard !isFinished, heading.direction != nil else { return }
    let device = register(heading.device)
    models[device]!.update(heading)
    display.changed(models[device]!, fix: nil, error: nil)
  }

  func locationManager(_ manager: LocationManager, didUpdateSky sky: SkyView) {
    guard !isFinished else { return }
    source.answered()
    let device = register(sky.device)
    models[device]!.update(sky)
    display.changed(models[device]!, fix: nil, error: nil)
  }

  func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
    guard !isFinished else { return }
    if let failure = source.unavailable(error) {
      finish(failure)
      return
    }
    // Errors concern the source, so every device's view, unless one names its device.
    if models.isEmpty { _ = register(nil) }
    if let device = error.device, models[device] != nil {
      models[device]!.fail(error, at: SystemClock.wall())
    } else {
      for key in devices { models[key]!.fail(error, at: SystemClock.wall()) }
    }
    display.changed(model, fix: nil, error: error)
    if error.code == .sourceEnded {
      if !display.waitsAtEnd { finish(nil) }
    } else if error.isFinal {
      finish(CommandError(message: "\(error)", code: SourceRun.exitCode(for: error)))
    }
  }
}

extension WatchSession: MotionManagerDelegate {
  /// Puts the panel on every device's view, and on the view a device yet to report
  /// starts with (the motion is the computer's, not a receiver's), and redraws.
  private func show(_ change: (inout MotionPanel) -> Void) {
    guard !isFinished else { return }
    change(&panel)
    blank.motionPanel = panel
    for key in devices { models[key]!.motionPanel = panel }
    display.changed(model, fix: nil, error: nil)
  }

  func motionManager(_ manager: MotionManager, didUpdateAccelerometer data: AccelerometerData) {
    show {
      $0.acceleration = data.acceleration
      $0.problem = nil
    }
  }
  func motionManager(_ manager: MotionManager, didUpdateDeviceMotion motion: DeviceMotion) {
    show { $0.motion = motion }
  }
  func motionManager(_ manager: MotionManager, didUpdateHeading heading: Heading) { show { $0.heading = heading } }
  func motionBegan(_ manager: MotionManager, shake: ShakeEvent) { show { $0.shake = shake } }
  func motionEnded(_ manager: MotionManager, shake: ShakeEvent) { show { $0.shake = shake } }
  func motionCancelled(_ manager: MotionManager, shake: ShakeEvent) { show { $0.shake = shake } }
  func motionManager(_ manager: MotionManager, didFailWithError error: MotionError) {
    // A log's end is no trouble: the last readings stay on screen.
    guard error.code != .sourceEnded else { return }
    show { $0.problem = error.description }
  }
}
