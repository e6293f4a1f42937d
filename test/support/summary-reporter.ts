import * as Mocha from 'mocha';

/** The spec reporter, closed by the `N passed, M failed` line that CI reads. */
class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    let passed = 0;
    let failed = 0;
    runner.on(Mocha.Runner.constants.EVENT_TEST_PASS, () => passed++);
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, () => failed++);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      // After the spec reporter's own epilogue, so it is the last line.
      setImmediate(() => console.log(`${passed} passed, ${failed} failed`));
    });
  }
}

export = SummaryReporter;
