// Test support for the apps' component tests (published as @rotunda/ui/testing): the stand-ins for what jsdom
// lacks (the <dialog> methods, IntersectionObserver), the shared per-test set-up, and a stand-in gateway (a
// stubbed fetch with answer builders).
export { fillInDialog } from './dialog';
export { type Handler, json, noContent, type RecordedCall, refusal, stubFetch } from './fetch-stub';
export { FakeIntersectionObserver } from './intersection';
export { setUpScreenTests } from './screen-tests';
