#!/usr/bin/env node
'use strict';
// Runs the built CLI; `npm run build` (run by `npm start` and on install) produces dist/.
require('../dist/src/main.js');
