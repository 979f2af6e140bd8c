import { expect, it } from 'vitest';
import { gatherWindow } from '../../../../src/engine/transaction/gather-window.js';

it('gathers for 1 ms at least and 8 at most, else as long as the last round took', () => {
  expect(gatherWindow(undefined)).toBe(1);
  expect(gatherWindow(0.4)).toBe(1);
  expect(gatherWindow(3.5)).toBe(3.5);
  expect(gatherWindow(40)).toBe(8);
});
