#!/usr/bin/env node
// Sums the suites' reports into one closing line: "N passed, N failed, N skipped".
// typecheck, lint, build and the package check (dist) count as one check each; vitest and Playwright by test.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'test-results';
let passed = 0, failed = 0, skipped = 0;
const lines = [];

const status = (name) => {
  const f = join(dir, `${name}.status`);
  return existsSync(f) ? Number(readFileSync(f, 'utf8').trim()) : null;
};

for (const name of ['typecheck', 'lint', 'build']) {
  const s = status(name);
  if (s === null) continue;
  if (s === 0) passed++; else { failed++; lines.push(`${name}: FAILED (exit ${s})`); }
}

const unitFile = join(dir, 'unit.json');
if (status('unit') !== null) {
  if (existsSync(unitFile)) {
    const r = JSON.parse(readFileSync(unitFile, 'utf8'));
    passed += r.numPassedTests ?? 0;
    failed += r.numFailedTests ?? 0;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    // a file that failed to load counts as a failure even with no test in it
    const broken = (r.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0);
    failed += broken.length;
    lines.push(`unit: ${r.numPassedTests} passed, ${r.numFailedTests + broken.length} failed`);
    if ((r.numTotalTests ?? 0) === 0) { failed++; lines.push('unit: ran no test'); }
  } else { failed++; lines.push('unit: no report (vitest crashed)'); }
}

const e2eFile = join(dir, 'e2e.json');
if (status('e2e') !== null) {
  if (existsSync(e2eFile)) {
    const r = JSON.parse(readFileSync(e2eFile, 'utf8'));
    const st = r.stats ?? {};
    passed += (st.expected ?? 0) + (st.flaky ?? 0);
    failed += st.unexpected ?? 0;
    skipped += st.skipped ?? 0;
    if ((r.errors ?? []).length) { failed += r.errors.length; lines.push(`e2e: ${r.errors.length} global errors`); }
    lines.push(`e2e: ${(st.expected ?? 0) + (st.flaky ?? 0)} passed, ${st.unexpected ?? 0} failed, ${st.skipped ?? 0} skipped`);
  } else { failed++; lines.push('e2e: no report (playwright crashed)'); }
}

// the desktop package check (scripts/dist-check.mjs): one check, its findings' failures listed
const distFile = join(dir, 'dist.json');
if (status('dist') !== null) {
  let r = null;
  try { r = JSON.parse(readFileSync(distFile, 'utf8').trim().split('\n').pop()); } catch { /* below */ }
  if (r?.ok && status('dist') === 0) { passed++; lines.push(`dist: package checked (${r.runtime} runtime, app ${r.app_mb} MB)`); }
  else { failed++; lines.push(`dist: FAILED${r ? `: ${(r.failures ?? []).join('; ')}` : ' (no report)'}`); }
}

for (const l of lines) console.log(l);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
