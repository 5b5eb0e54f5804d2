import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReporter, isReporterName, REPORTER_NAMES } from '../../../cli/reporters';
import { ConsoleReporter } from '../../../cli/reporters/console';
import { CsvReporter } from '../../../cli/reporters/csv';
import { EvalhubReporter } from '../../../cli/reporters/evalhub';
import { JsonReporter } from '../../../cli/reporters/json';
import { JsonlReporter } from '../../../cli/reporters/jsonl';
import { JunitReporter } from '../../../cli/reporters/junit';
import { Capture } from './harness';

describe('createReporter', () => {
  it('maps every reporter name to its reporter', () => {
    const options = { stdout: new Capture(), cwd: process.cwd(), color: false };
    const made = REPORTER_NAMES.map((name) => createReporter(name, options).constructor);
    assert.deepEqual(made, [ConsoleReporter, JsonReporter, JsonlReporter, JunitReporter, CsvReporter, EvalhubReporter]);
  });

  it('tells reporter names from other words, for usage errors', () => {
    assert.deepEqual([...REPORTER_NAMES], ['console', 'json', 'jsonl', 'junit', 'csv', 'evalhub']);
    assert.equal(isReporterName('junit'), true);
    assert.equal(isReporterName('xml'), false);
    assert.equal(isReporterName('constructor'), false);
  });
});
