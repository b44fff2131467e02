// The settings re-checks of src/recheck.ts: they run at their delays, and none runs once cleared
// (what deactivate does) or scheduled anew.
import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";
import { RECHECK_DELAYS, Rechecks } from "../../src/recheck";

beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout"] });
});

afterEach(() => {
  mock.timers.reset();
});

test("the re-checks run at 1, 3 and 6 s, then none is pending", () => {
  const rechecks = new Rechecks();
  let calls = 0;
  rechecks.schedule(() => calls++);
  assert.deepEqual(RECHECK_DELAYS, [1_000, 3_000, 6_000]);
  assert.equal(rechecks.pending, 3);
  const seen: number[] = [];
  for (const step of [999, 1, 1_999, 1, 2_999, 1]) {
    mock.timers.tick(step);
    seen.push(calls);
  }
  assert.deepEqual(seen, [0, 1, 1, 2, 2, 3]);
  assert.equal(rechecks.pending, 0);
});

test("cleared (deactivate): no re-check runs afterwards", () => {
  const rechecks = new Rechecks();
  let calls = 0;
  rechecks.schedule(() => calls++);
  mock.timers.tick(1_500);
  assert.equal(calls, 1);
  rechecks.clear();
  assert.equal(rechecks.pending, 0);
  mock.timers.tick(10_000);
  assert.equal(calls, 1);
});

test("disposed: no re-check runs", () => {
  const rechecks = new Rechecks();
  let calls = 0;
  rechecks.schedule(() => calls++);
  rechecks.dispose();
  mock.timers.tick(10_000);
  assert.equal(calls, 0);
});

test("scheduled again: the earlier re-checks are replaced, not added to", () => {
  const rechecks = new Rechecks();
  let first = 0;
  let second = 0;
  rechecks.schedule(() => first++);
  mock.timers.tick(500);
  rechecks.schedule(() => second++);
  assert.equal(rechecks.pending, 3);
  mock.timers.tick(10_000);
  assert.deepEqual([first, second], [0, 3]);
});
