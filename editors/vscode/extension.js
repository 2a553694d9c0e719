// Starts the ninety language server (`ninety lsp`, over stdio) for `.rules` files.
// Plain JavaScript, no build step: VS Code loads this file as it is.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

function serverCommand() {
  const configured = vscode.workspace.getConfiguration('ninety').get('server.path');
  return typeof configured === 'string' && configured.trim() !== '' ? configured.trim() : 'ninety';
}

async function start() {
  const command = serverCommand();
  const serverOptions = { command, args: ['lsp'], transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'ninety' },
      { scheme: 'untitled', language: 'ninety' },
    ],
  };
  client = new LanguageClient('ninety', 'ninety', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    client = undefined;
    vscode.window.showErrorMessage(
      `Could not start the ninety language server (\`${command} lsp\`): ${error.message ?? error}. ` +
        'Install ninety (`cargo install --locked --path .`) or set "ninety.server.path" to the program.',
    );
  }
}

async function stop() {
  if (client) {
    const running = client;
    client = undefined;
    await running.stop();
  }
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('ninety.server.path')) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
