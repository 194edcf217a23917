import fs from 'node:fs';
import path from 'node:path';

/** The folder holding package.json, from src/ (ts-jest) and from dist/src/ (built) alike. */
export function packageRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}
