/**
 * Process entry of the language server (dist/server.js). The transport comes from the command line:
 * `--stdio` for editors and tests, `--node-ipc` when VS Code starts it with TransportKind.ipc.
 */
// First: it starts a worker thread that loads while the rest of the server does.
import './earlyStart';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { untrustedEnv } from '../core/config/untrustedEnv';
import { startServer } from './startServer';
import { userAnalysisStore } from './analysis/analysisStore';

// The extension starts the server with EVALLENS_UNTRUSTED=1 in Restricted Mode: diagnostics then read no
// `${VAR}` a workspace file names (each is said to be unread, at its position).
const env = process.env['EVALLENS_UNTRUSTED'] === '1' ? untrustedEnv() : process.env;
// Diagnostics of earlier sessions, kept for this build of the server (this bundle's content names it).
const analysisStore = userAnalysisStore(process.env, __filename);
startServer(createConnection(ProposedFeatures.all), { env, ...(analysisStore === undefined ? {} : { analysisStore }) });
