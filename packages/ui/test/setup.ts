// Test set-up: the <dialog> methods jsdom lacks, and a clean DOM after every test.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { fillInDialog } from './support';

fillInDialog();

afterEach(() => cleanup());
