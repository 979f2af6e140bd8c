// vitest setup: every test process gets Node's file access for src/text and src/wasm (the WASM core
// from build/, the files text settings name), as openEngine installs it in the server.
import { installNodeHost } from '../../src/engine/node-host.js';

installNodeHost();
