// Test set-up: @rotunda/ui's for the apps' screens (the <dialog> methods and IntersectionObserver jsdom lacks,
// driven by the tests through `intersect`; every test signed out, with a clean DOM and no stubbed globals).
import { setUpScreenTests } from '@rotunda/ui/testing';

setUpScreenTests();
