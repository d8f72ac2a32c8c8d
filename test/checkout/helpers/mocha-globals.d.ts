// Mocha's globals as web-test-runner provides them in the browser (the project has no @types/mocha).
interface MochaContext {
  timeout(ms: number): void;
}
type MochaFn = (this: MochaContext) => void | Promise<void>;
declare function describe(title: string, fn: () => void): void;
declare function it(title: string, fn: MochaFn): void;
declare function before(fn: MochaFn): void;
declare function after(fn: MochaFn): void;
declare function beforeEach(fn: MochaFn): void;
declare function afterEach(fn: MochaFn): void;
