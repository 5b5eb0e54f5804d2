import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requiredArtifacts } from '../../../core/scorers/builtin/requiredArtifacts';
import { schemaErrors, score } from '../../support/scoring';

const DIGEST = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const OTHER = 'b'.repeat(64);
const report = { kind: 'file', name: 'report.pdf' };
const chart = { kind: 'image', name: 'chart.png', sha256: DIGEST };

describe('required_artifacts', () => {
  it('passes when the output reports every required artifact, score 1', async () => {
    const v = await score(
      requiredArtifacts,
      { artifacts: [report, chart] },
      { output: { artifacts: [{ ...report, sha256: OTHER }, chart] } },
    );
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
    assert.equal(v.details?.['satisfied'], 2);
    assert.equal(v.details?.['total'], 2);
  });

  it('fails naming the kind and name of a missing artifact, with score 0 and satisfied/total', async () => {
    const v = await score(requiredArtifacts, { artifacts: [report, chart] }, { output: { artifacts: [chart] } });
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
    assert.match(v.reason, /1 of 2 required artifacts is not satisfied: `report\.pdf` \(kind `file`\) is not reported/);
    assert.equal(v.details?.['satisfied'], 1);
  });

  it('matches kind and name exactly: the same name with another kind is not the artifact', async () => {
    const v = await score(
      requiredArtifacts,
      { artifacts: [report] },
      {
        output: {
          artifacts: [
            { kind: 'document', name: 'report.pdf' },
            { kind: 'file', name: 'Report.pdf' },
          ],
        },
      },
    );
    assert.equal(v.status, 'fail');
  });

  it('compares the digest case-insensitively', async () => {
    const v = await score(
      requiredArtifacts,
      { artifacts: [{ ...chart, sha256: DIGEST.toUpperCase() }] },
      { output: { artifacts: [chart] } },
    );
    assert.equal(v.status, 'pass');
    const w = await score(
      requiredArtifacts,
      { artifacts: [chart] },
      { output: { artifacts: [{ ...chart, sha256: DIGEST.toUpperCase() }] } },
    );
    assert.equal(w.status, 'pass');
  });

  it('fails a digest mismatch, saying so without any digest in the reason; details carry them', async () => {
    const v = await score(
      requiredArtifacts,
      { artifacts: [chart] },
      { output: { artifacts: [{ ...chart, sha256: OTHER }] } },
    );
    assert.equal(v.status, 'fail');
    assert.match(
      v.reason,
      /`chart\.png` \(kind `image`\) is reported in the output with a sha256 digest that does not match/,
    );
    assert.doesNotMatch(v.reason, /[0-9a-f]{16}/i);
    assert.deepEqual(v.details?.['unsatisfied'], [
      {
        kind: 'image',
        name: 'chart.png',
        problem: 'digest_mismatch',
        source: 'output',
        required_sha256: DIGEST,
        reported_sha256: OTHER,
      },
    ]);
  });

  it('fails a required digest that is not reported or is not 64 hex characters', async () => {
    const missing = await score(
      requiredArtifacts,
      { artifacts: [chart] },
      { output: { artifacts: [{ kind: 'image', name: 'chart.png' }] } },
    );
    assert.equal(missing.status, 'fail');
    assert.match(missing.reason, /without a sha256 digest/);
    const short = await score(
      requiredArtifacts,
      { artifacts: [chart] },
      { output: { artifacts: [{ ...chart, sha256: DIGEST.slice(0, 40) }] } },
    );
    assert.equal(short.status, 'fail');
    assert.match(short.reason, /not 64 hex characters/);
    assert.doesNotMatch(short.reason, /9f86d081/);
  });

  it('accepts any reported digest, or none, when the requirement gives no sha256', async () => {
    assert.equal(
      (await score(requiredArtifacts, { artifacts: [report] }, { output: { artifacts: [report] } })).status,
      'pass',
    );
  });

  it('searches the output, then the case metadata, then the trace', async () => {
    assert.equal(
      (await score(requiredArtifacts, { artifacts: [report] }, { output: 'done', metadata: { artifacts: [report] } }))
        .status,
      'pass',
    );
    assert.equal(
      (await score(requiredArtifacts, { artifacts: [report] }, { output: 'done', trace: { artifacts: [report] } }))
        .status,
      'pass',
    );
    const v = await score(
      requiredArtifacts,
      { artifacts: [report, chart] },
      { output: { artifacts: [report] }, trace: { artifacts: [chart] } },
    );
    assert.equal(v.status, 'pass');
    assert.deepEqual(v.details?.['lists_found'], ['output', 'trace']);
  });

  it('checks the first reported entry in search order: a mismatched digest in the output is not rescued by the trace', async () => {
    const v = await score(
      requiredArtifacts,
      { artifacts: [chart] },
      { output: { artifacts: [{ ...chart, sha256: OTHER }] }, trace: { artifacts: [chart] } },
    );
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /in the output with a sha256 digest that does not match/);
    const fromMetadata = await score(
      requiredArtifacts,
      { artifacts: [chart] },
      { output: {}, metadata: { artifacts: [chart] }, trace: { artifacts: [{ ...chart, sha256: OTHER }] } },
    );
    assert.equal(fromMetadata.status, 'pass');
  });

  it('reads an output that is itself a list, such as one picked with output_path', async () => {
    const v = await score(
      requiredArtifacts,
      { output_path: 'result.files', artifacts: [chart] },
      { output: { result: { files: [chart] } } },
    );
    assert.equal(v.status, 'pass');
  });

  it('fails when the case reports no artifacts list at all, and says so', async () => {
    const v = await score(requiredArtifacts, { artifacts: [report] }, { output: { answer: 'done' } });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /the case reports no artifacts list/);
  });

  it('fails a malformed artifacts list in the output, naming the problem', async () => {
    const notList = await score(requiredArtifacts, { artifacts: [report] }, { output: { artifacts: 'report.pdf' } });
    assert.equal(notList.status, 'fail');
    assert.match(
      notList.reason,
      /the output's artifacts list is malformed: it is a string of 10 characters, not a list/,
    );
    assert.doesNotMatch(notList.reason, /report\.pdf/);
    const badItem = await score(
      requiredArtifacts,
      { artifacts: [report] },
      { output: { artifacts: [report, 'chart.png'] } },
    );
    assert.match(badItem.reason, /item 2 is a string of 9 characters, not an object/);
    const badName = await score(
      requiredArtifacts,
      { artifacts: [report] },
      { output: { artifacts: [{ kind: 'file', name: 7 }] } },
    );
    assert.match(badName.reason, /item 1 has a `name` that is a number, not a string/);
    const noKind = await score(
      requiredArtifacts,
      { artifacts: [report] },
      { output: { artifacts: [{ name: 'report.pdf' }] } },
    );
    assert.match(noKind.reason, /item 1 has no `kind`/);
    const badDigest = await score(
      requiredArtifacts,
      { artifacts: [report] },
      { output: { artifacts: [{ ...report, sha256: 12 }] } },
    );
    assert.equal(badDigest.status, 'fail');
  });

  it('fails a malformed artifacts list in the trace (recorded from the run)', async () => {
    const v = await score(
      requiredArtifacts,
      { artifacts: [report] },
      { output: { artifacts: [report] }, trace: { artifacts: [null] } },
    );
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /the trace's artifacts list is malformed: item 1 is null, not an object/);
  });

  it('is an error when the case metadata artifacts list is malformed (the dataset is wrong), even when the output is malformed too', async () => {
    const v = await score(
      requiredArtifacts,
      { artifacts: [report] },
      { output: { artifacts: [report] }, metadata: { artifacts: { kind: 'file' } } },
    );
    assert.equal(v.status, 'error');
    assert.match(v.reason, /metadata's artifacts list is malformed: it is an object, not a list/);
    assert.equal(
      (
        await score(
          requiredArtifacts,
          { artifacts: [report] },
          { output: { artifacts: 3 }, metadata: { artifacts: [1] } },
        )
      ).status,
      'error',
    );
  });

  it('names at most five failing artifacts', async () => {
    const artifacts = [1, 2, 3, 4, 5, 6].map((i) => ({ kind: 'file', name: `f${i}` }));
    const v = await score(requiredArtifacts, { artifacts }, { output: { artifacts: [] } });
    assert.match(
      v.reason,
      /6 of 6 required artifacts are not satisfied: .*`f5` \(kind `file`\) is not reported; and 1 more$/,
    );
  });

  it('rejects in the schema: no list, an empty list, a missing name, a malformed sha256, an unknown key', () => {
    assert.notDeepEqual(schemaErrors(requiredArtifacts, {}), []);
    assert.notDeepEqual(schemaErrors(requiredArtifacts, { artifacts: [] }), []);
    assert.notDeepEqual(schemaErrors(requiredArtifacts, { artifacts: [{ kind: 'file' }] }), []);
    assert.notDeepEqual(
      schemaErrors(requiredArtifacts, { artifacts: [{ kind: 'file', name: 'a', sha256: 'abc' }] }),
      [],
    );
    assert.notDeepEqual(
      schemaErrors(requiredArtifacts, { artifacts: [{ kind: 'file', name: 'a', sha256: `${'g'.repeat(64)}` }] }),
      [],
    );
    assert.notDeepEqual(schemaErrors(requiredArtifacts, { artifacts: [{ kind: 'file', name: 'a', url: 'x' }] }), []);
    assert.notDeepEqual(schemaErrors(requiredArtifacts, { artifacts: [{ kind: '', name: 'a' }] }), []);
    assert.deepEqual(
      schemaErrors(requiredArtifacts, { artifacts: [{ kind: 'file', name: 'a', sha256: DIGEST.toUpperCase() }] }),
      [],
    );
  });
});
