import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConcreteRequest } from 'relay-runtime';

/**
 * relay-compiler (v21, the binary of the npm package) over the committed schema, as a Relay app
 * runs it: the sources' `graphql` tags become artefacts in `src/__generated__`, CommonJS
 * (`eagerEsModules: false`), so a test can load them and hand them to relay-runtime.
 */
const RELAY = path.resolve('node_modules/relay-compiler/linux-x64/relay');
const SCHEMA = path.resolve('schema/schema.graphql');

export interface RelayBuild {
  status: number | null;
  /** The compiler's stdout and stderr. */
  output: string;
  /** The names of the generated files, sorted. */
  generated: string[];
  /** The generated operations (queries, mutations, subscriptions), by name. */
  requests: Map<string, ConcreteRequest>;
}

export function compileRelay(files: Record<string, string>): RelayBuild {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-'));
  try {
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(
      path.join(dir, 'relay.config.json'),
      JSON.stringify({
        src: './src',
        schema: SCHEMA,
        language: 'javascript',
        eagerEsModules: false,
      }),
    );
    for (const [name, text] of Object.entries(files))
      fs.writeFileSync(path.join(dir, 'src', name), text);
    const run = spawnSync(RELAY, [], { cwd: dir, encoding: 'utf8' });
    const out = path.join(dir, 'src', '__generated__');
    const generated = fs.existsSync(out) ? fs.readdirSync(out).sort() : [];
    const requests = new Map<string, ConcreteRequest>();
    for (const file of generated) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const artefact = require(path.join(out, file)) as { kind?: string };
      if (artefact.kind === 'Request') {
        const operation = artefact as ConcreteRequest;
        requests.set(operation.params.name, operation);
      }
    }
    return { status: run.status, output: `${run.stdout}${run.stderr}`, generated, requests };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
