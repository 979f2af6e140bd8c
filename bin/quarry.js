#!/usr/bin/env node
// quarry command line; runs the compiled server (npm run build first).
import { exitSoon, main } from '../dist/src/server/cli.js';

const code = await main(process.argv.slice(2));
if (code !== undefined) exitSoon(code);
