import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalToolCall, canonicalToolName, looksCanonicalMcp } from '../../../core/trace/toolNames';

describe('canonical tool names', () => {
  it("reads Claude Code's mcp__<server>__<tool>, the server ending at the first __ after the prefix", () => {
    assert.equal(canonicalToolName('mcp__cloud-sql__list_instances'), 'cloud-sql__list_instances');
    assert.equal(canonicalToolName('mcp__my_server__run_query'), 'my_server__run_query');
    assert.equal(canonicalToolName('mcp__github__search__issues'), 'github__search__issues');
  });

  it('keeps a malformed Claude name as it is', () => {
    for (const name of ['mcp__', 'mcp__github', 'mcp__github__', 'mcp____tool'])
      assert.equal(canonicalToolName(name), name);
  });

  it("reads Gemini CLI's mcp_<server>_<tool>, underscores in the tool kept, none in the server", () => {
    assert.equal(canonicalToolName('mcp_bigquery_run_query'), 'bigquery__run_query');
    assert.equal(canonicalToolName('mcp_bigquery_get_table_info'), 'bigquery__get_table_info');
    assert.equal(canonicalToolName('mcp_cloud-sql_list_instances'), 'cloud-sql__list_instances');
    assert.equal(canonicalToolName('mcp_bigquery'), 'mcp_bigquery');
    assert.equal(canonicalToolName('mcp__x'), 'mcp__x');
  });

  it("unwraps agy's call_mcp_tool, with quoted (JSON-encoded) names and the MCP tool's own arguments", () => {
    const quoted = { ServerName: '"cloud-sql"', ToolName: '"list_instances"', Arguments: '{"project":"acme-prod"}' };
    assert.equal(canonicalToolName('call_mcp_tool', quoted), 'cloud-sql__list_instances');
    assert.deepEqual(canonicalToolCall('call_mcp_tool', quoted), {
      name: 'cloud-sql__list_instances',
      arguments: { project: 'acme-prod' },
    });
    const plain = { ServerName: 'bigquery', ToolName: 'run_query', Arguments: { query: 'SELECT 1' } };
    assert.deepEqual(canonicalToolCall('call_mcp_tool', plain), {
      name: 'bigquery__run_query',
      arguments: { query: 'SELECT 1' },
    });
    assert.deepEqual(canonicalToolCall('call_mcp_tool', { ServerName: 'bigquery', ToolName: 'list_datasets' }), {
      name: 'bigquery__list_datasets',
    });
  });

  it('keeps call_mcp_tool when the server or tool is missing, empty or not a string', () => {
    for (const args of [
      undefined,
      {},
      { ServerName: 'bigquery' },
      { ServerName: '""', ToolName: 'x' },
      { ServerName: 3, ToolName: 'x' },
      'text',
    ]) {
      assert.equal(canonicalToolName('call_mcp_tool', args), 'call_mcp_tool');
    }
    assert.deepEqual(canonicalToolCall('call_mcp_tool', { ServerName: 'bigquery' }), {
      name: 'call_mcp_tool',
      arguments: { ServerName: 'bigquery' },
    });
  });

  it('passes a name already canonical, and a native name, through unchanged', () => {
    for (const name of [
      'cloud-sql__list_instances',
      'mcp_x__y',
      'x__y__z',
      'read_file',
      'run_shell_command',
      '__x',
      'x__',
      '',
    ]) {
      assert.equal(canonicalToolName(name), name);
    }
    assert.deepEqual(canonicalToolCall('read_file', { path: 'a' }), { name: 'read_file', arguments: { path: 'a' } });
    assert.deepEqual(canonicalToolCall('read_file'), { name: 'read_file' });
  });

  it('says a name looks canonical MCP when partition("__") gives a non-empty server and tool', () => {
    assert.equal(looksCanonicalMcp('github__search'), true);
    assert.equal(looksCanonicalMcp('x__y__z'), true);
    assert.equal(looksCanonicalMcp('a___b'), true);
    assert.equal(looksCanonicalMcp('__x'), false);
    assert.equal(looksCanonicalMcp('x__'), false);
    assert.equal(looksCanonicalMcp('read_file'), false);
    assert.equal(looksCanonicalMcp(''), false);
  });
});
