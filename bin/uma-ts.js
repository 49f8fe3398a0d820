#!/usr/bin/env node
'use strict';
require('../dist/src/cli/io.js').ignoreClosedPipes([process.stdout, process.stderr]);
require('../dist/src/cli/main.js').main(process.argv).then((code) => { process.exitCode = code; });
