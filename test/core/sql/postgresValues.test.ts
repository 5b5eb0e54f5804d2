import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exactNumber, OID, postgresValue } from '../../../core/sql/postgresValues';

describe('PostgreSQL values', () => {
  it('turns numeric into a number only when no digit is lost', () => {
    assert.equal(exactNumber('12.50'), 12.5);
    assert.equal(exactNumber('19.99'), 19.99);
    assert.equal(exactNumber('-0.000'), 0);
    assert.equal(exactNumber('0.0000001'), 1e-7);
    assert.equal(exactNumber('1000000000000000000000'), 1e21);
    assert.equal(exactNumber('0.33333333333333333333'), '0.33333333333333333333');
    assert.equal(exactNumber('12345678901234567890.5'), '12345678901234567890.5');
    assert.equal(exactNumber('NaN'), 'NaN');
  });

  it('gives bigint as a number within ±(2^53 − 1), else as text (as SQLite integers are given)', () => {
    assert.equal(postgresValue(OID.int8, '12'), 12);
    assert.equal(postgresValue(OID.int8, '-9007199254740991'), -9007199254740991);
    assert.equal(postgresValue(OID.int8, '9007199254740992'), '9007199254740992');
    assert.equal(postgresValue(OID.int8, '9223372036854775807'), '9223372036854775807');
  });

  it('gives timestamps as ISO 8601, in UTC with Z', () => {
    assert.equal(postgresValue(OID.timestamp, '2024-01-31 12:00:00'), '2024-01-31T12:00:00');
    assert.equal(postgresValue(OID.timestamptz, '2024-01-31 12:00:00.123456+00'), '2024-01-31T12:00:00.123456Z');
    assert.equal(postgresValue(OID.timestamptz, '2024-01-31 12:00:00+05:30'), '2024-01-31T12:00:00+05:30');
    assert.equal(postgresValue(OID.timestamptz, 'infinity'), 'infinity');
    assert.equal(postgresValue(OID.timestamp, '0044-03-15 12:00:00 BC'), '0044-03-15 12:00:00 BC');
    assert.equal(postgresValue(OID.date, '2024-01-31'), '2024-01-31');
  });

  it('gives booleans, floats, bytea and JSON', () => {
    assert.equal(postgresValue(OID.bool, 't'), true);
    assert.equal(postgresValue(OID.bool, 'f'), false);
    assert.equal(postgresValue(OID.float8, '0.1'), 0.1);
    assert.ok(Number.isNaN(postgresValue(OID.float8, 'NaN')));
    assert.equal(postgresValue(OID.float8, '-Infinity'), -Infinity);
    assert.equal(postgresValue(OID.bytea, '\\x00FF10'), '00ff10');
    assert.equal(postgresValue(OID.jsonb, '{"a": 1}'), '{"a": 1}');
    assert.equal(postgresValue(OID.json, '[1,2]'), '[1,2]');
    assert.equal(postgresValue(1186, '1 day 02:00:00'), '1 day 02:00:00', 'other types: the server text');
  });
});
