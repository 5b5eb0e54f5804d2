/**
 * Process entry of the language server (dist/server.js). The transport comes from the command line:
 * `--stdio` for editors and tests, `--node-ipc` when VS Code starts it with TransportKind.ipc.
 */
// First: it starts a worker thread that loads while the rest of the server does.
import './earlyStart';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './startServer';

startServer(createConnection(ProposedFeatures.all), { env: process.env });
