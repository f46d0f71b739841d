import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

private let onLinux: Bool = {
  #if os(Linux)
    true
  #else
    false
  #endif
}()

/// `SerialWorker`, the writers' thread (stdout, stderr, the stores' files): jobs run one at a
/// time in the order handed over, on a thread of the worker's own, and handing over never waits
/// for a job, however long one blocks. The thread takes no signal, so the tool's signal handling
/// never finds a writer stuck in a `write(2)`, and it ends with the worker.
@Suite("Work on a thread of its own", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct WorkOnAThreadOfItsOwnUseCaseTests {
  @Test func jobs_runInTheOrderHandedOver_oneAtATime() {
    let done = Locked<[Int]>([])
    let running = Locked((now: 0, most: 0))
    let sut = makeSUT { job in
      running.withValue {
        $0.now += 1
        $0.most = max($0.most, $0.now)
      }
      done.append(job)
      running.withValue { $0.now -= 1 }
    }

    for job in 0..<200 { handOver(job, to: sut) }

    #expect(sut.waitUntilIdle(atMost: .seconds(5)))
    #expect(done.value == Array(0..<200))
    #expect(running.value.most == 1)
  }

  @Test func hand_returnsAtOnce_whileAJobIsStuck_andTheWaitIsBounded() {
    let stall = Stall()
    let done = Locked<[Int]>([])
    let sut = makeSUT { job in
      if job == 1 { stall.pass() }
      done.append(job)
    }

    handOver(1, to: sut)
    #expect(stall.hasStalled())
    handOver(2, to: sut)

    #expect(!sut.isIdle)
    #expect(!sut.waitUntilIdle(atMost: .milliseconds(20)), "the wait ended although a job is stuck")
    stall.release()
    #expect(sut.waitUntilIdle(atMost: .seconds(5)))
    #expect(done.value == [1, 2])
  }

  /// Lines come from the loop and from other threads (stderr's warnings, `serve`'s logs from
  /// Hummingbird's loops) at once: none is lost or done twice.
  @Test func jobsHandedOverFromManyThreadsAtOnce_areEachDoneOnce() {
    let done = Locked<[Int]>([])
    let sut = makeSUT { done.append($0) }

    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for job in 0..<5_000 { handOver(thread * 5_000 + job, to: sut) }
    }

    #expect(sut.waitUntilIdle(atMost: .seconds(10)))
    #expect(done.value.count == 20_000)
    #expect(Set(done.value).count == 20_000)
  }

  /// The worker's thread starts with every signal blocked, set while it is made: the thread that
  /// hands over the first job (the event loop, the main thread) must get its own mask back, or
  /// it would take no signal from then on.
  @Test func startingTheThread_leavesTheCallersSignalMaskAsItWas() {
    // The test's own thread (Swift's pool) blocks every signal already: for the test it blocks
    // only SIGUSR2, so a mask left fully blocked shows.
    var original = sigset_t()
    var before = sigset_t()
    sigemptyset(&before)
    sigaddset(&before, SIGUSR2)
    pthread_sigmask(SIG_SETMASK, &before, &original)
    defer { pthread_sigmask(SIG_SETMASK, &original, nil) }
    let sut = makeSUT { _ in }

    handOver(1, to: sut)
    var after = sigset_t()
    pthread_sigmask(SIG_SETMASK, nil, &after)

    #expect(sut.waitUntilIdle(atMost: .seconds(5)))
    for signal in Int32(1)..<32 where signal != SIGKILL && signal != SIGSTOP {
      #expect(sigismember(&before, signal) == sigismember(&after, signal), "signal \(signal)")
    }
  }

  /// The ways out wait for a writer this long (`CommandLineOutput.waitUntilWritten`: 100 ms
  /// after a signal, 50 ms for the cursor): a wait that ends early cuts a line that was still
  /// to come.
  @Test func aBoundedWait_lastsItsWholeBound_whileAJobIsStuck() {
    let stall = Stall()
    let sut = makeSUT { _ in stall.pass() }
    handOver(1, to: sut)
    #expect(stall.hasStalled())

    let started = ContinuousClock.now
    #expect(!sut.waitUntilIdle(atMost: .milliseconds(150)))
    let waited = ContinuousClock.now - started

    #expect(waited >= .milliseconds(149), "gave up after \(waited)")
    stall.release()
  }

  /// The job is let go only after the wait began (another thread, a moment later), so a wait
  /// that returned at once would find it not done.
  @Test func aWaitWithoutABound_returnsOnlyOnceAStuckJobIsDone() {
    let stall = Stall()
    let done = Locked<[Int]>([])
    let sut = makeSUT { job in
      stall.pass()
      done.append(job)
    }
    handOver(1, to: sut)
    #expect(stall.hasStalled())
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { stall.release() }

    #expect(sut.waitUntilIdle())
    #expect(done.value == [1])
  }

  /// Each wait is told once: a waiter told again at a later catch-up would resume its
  /// continuation twice, which ends the process.
  @Test func finish_awaitedOnceAJobAfterAnother_tellsEachWaitOnce() async {
    let done = Locked<[Int]>([])
    let stalls = Locked<[Int: Stall]>([1: Stall(), 2: Stall()])
    let sut = makeSUT { job in
      stalls.value[job]?.pass()
      done.append(job)
    }

    for job in [1, 2] {
      handOver(job, to: sut)
      let stall = stalls.value[job]!
      #expect(stall.hasStalled())
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { stall.release() }
      await sut.finish()
      #expect(done.value == Array(1...job))
    }
  }

  @Test func finish_returnsOnceTheJobsHandedOverAreDone_includingThoseTheCatchUpHandsOver()
    async
  {
    let done = Locked<[Int]>([])
    let worker = Locked<SerialWorker<[Int], Int>?>(nil)
    let sut = SerialWorker<[Int], Int>(
      label: "test", [], next: { $0.isEmpty ? nil : $0.removeFirst() },
      run: { done.append($0) },
      caughtUp: {
        // The first catch-up hands over one more job: the waiters wait for it too.
        guard done.value.count == 1 else { return }
        if let worker = worker.value { handOver(2, to: worker) }
      })
    worker.withValue { $0 = sut }

    handOver(1, to: sut)
    await sut.finish()

    #expect(done.value == [1, 2])
    worker.withValue { $0 = nil }
  }

  /// The caught-up callback is part of the work: the live panel draws its held-back frame
  /// there, so a wait that returned before it ran could end the run without the newest frame.
  @Test func aWait_returnsOnlyOnceTheCaughtUpCallbackHasRun() {
    let stall = Stall()
    let sut = SerialWorker<[Int], Int>(
      label: "test", [], next: { $0.isEmpty ? nil : $0.removeFirst() }, run: { _ in },
      caughtUp: { stall.pass() })
    handOver(1, to: sut)
    #expect(stall.hasStalled())

    #expect(!sut.isIdle)
    #expect(!sut.waitUntilIdle(atMost: .milliseconds(50)))
    stall.release()
    #expect(sut.waitUntilIdle(atMost: .seconds(10)))
    #expect(sut.isIdle)
  }

  @Test func jobs_runOnAThreadThatTakesNoSignal_namedAfterTheWorker() {
    let seen = Locked<(blocked: [Int32], sameThread: Bool)?>(nil)
    // The caller's thread as a Sendable value: `pthread_t` is a pointer on Darwin, which the
    // worker's @Sendable closure may not capture (issue 49).
    let caller = ObjectIdentifier(Thread.current)
    let sut = SerialWorker<[Int], Int>(
      label: "btc-price.stdout", [], next: { $0.isEmpty ? nil : $0.removeFirst() },
      run: { _ in
        var mask = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &mask)
        let blocked = [SIGINT, SIGTERM, SIGTSTP, SIGCONT, SIGWINCH, SIGPIPE].filter {
          sigismember(&mask, $0) == 1
        }
        seen.withValue { $0 = (blocked, ObjectIdentifier(Thread.current) == caller) }
      })

    handOver(1, to: sut)

    #expect(sut.waitUntilIdle(atMost: .seconds(5)))
    #expect(seen.value?.blocked == [SIGINT, SIGTERM, SIGTSTP, SIGCONT, SIGWINCH, SIGPIPE])
    #expect(seen.value?.sameThread == false)
  }

  @Test(.enabled(if: onLinux, "reads the thread's name and life from /proc"))
  func theThread_isNamedAfterTheWorker_andEndsOnceTheWorkerIsReleased() async throws {
    let thread = Locked<(id: String, name: String)?>(nil)
    var sut: SerialWorker<[Int], Int>? = SerialWorker(
      label: "btc-price.stdout", [], next: { $0.isEmpty ? nil : $0.removeFirst() },
      run: { _ in
        // "PID/task/TID"
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
        thread.withValue {
          $0 = (
            link.map { String($0.split(separator: "/").last ?? "") } ?? "",
            name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
          )
        }
      })
    handOver(1, to: sut!)
    #expect(sut?.waitUntilIdle(atMost: .seconds(5)) == true)
    let (id, name) = try #require(thread.value)
    #expect(name == "writer-stdout")
    #expect(FileManager.default.fileExists(atPath: "/proc/self/task/\(id)"))

    sut = nil

    await waitUntil(
      { !FileManager.default.fileExists(atPath: "/proc/self/task/\(id)") },
      "the worker's thread outlived the worker")
  }

  @Test func threadName_isTheLabelWithoutTheToolsName_cutToWhatLinuxKeeps() {
    #expect(SerialWorker<Int, Int>.threadName("btc-price.disk") == "writer-disk")
    #expect(SerialWorker<Int, Int>.threadName("btc-price.stderr") == "writer-stderr")
    #expect(SerialWorker<Int, Int>.threadName("a-very-long-label") == "writer-a-very-l")
  }

  private func makeSUT(run: @escaping @Sendable (Int) -> Void) -> SerialWorker<[Int], Int> {
    SerialWorker(
      label: "test", [], next: { $0.isEmpty ? nil : $0.removeFirst() }, run: run)
  }
}

private func handOver(_ job: Int, to sut: SerialWorker<[Int], Int>) {
  sut.hand { pending in
    pending.append(job)
    return (handed: true, result: ())
  }
}
