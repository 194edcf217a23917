import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The fenced code blocks of the guides in docs/, for the tests that hold the guides to the
 * service: test/graphql/docs-operations.test.ts (every GraphQL operation is valid against the
 * committed schema) and test/clients/docs-client-setups.test.ts (every client setup runs as
 * written).
 */
export interface DocBlock {
  /** `docs/<file>.md:<line of the opening fence>`, for failure messages. */
  readonly where: string;
  readonly file: string;
  /** The fence's info string's first word (`graphql`, `ts`, ...), lower case; '' when none. */
  readonly lang: string;
  readonly text: string;
  /**
   * The marker of the HTML comment above the fence, blank lines apart (`<!-- docs-check: run
   * urql -->` gives `run urql`), which readers of the rendered page do not see; undefined when
   * there is none.
   */
  readonly marker: string | undefined;
}

export const DOCS_DIR = join(__dirname, '..', '..', 'docs');

export function docBlocks(): DocBlock[] {
  const blocks: DocBlock[] = [];
  for (const file of readdirSync(DOCS_DIR)
    .filter((f) => f.endsWith('.md'))
    .sort()) {
    const lines = readFileSync(join(DOCS_DIR, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]!);
      if (!open) continue;
      const [, indent, fence, lang] = open;
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length && !lines[j]!.trim().startsWith(fence!); j++) {
        body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!);
      }
      let k = i - 1;
      while (k >= 0 && lines[k]!.trim() === '') k--;
      const above = k >= 0 ? /^\s*<!--\s*docs-check:\s*(.*?)\s*-->\s*$/.exec(lines[k]!) : null;
      blocks.push({
        where: `docs/${file}:${i + 1}`,
        file,
        lang: lang!.toLowerCase(),
        text: body.join('\n'),
        marker: above?.[1],
      });
      i = j;
    }
  }
  return blocks;
}

/** Blocks in TypeScript or JavaScript. */
export const isScript = (block: DocBlock): boolean =>
  ['ts', 'tsx', 'typescript', 'js', 'jsx', 'javascript'].includes(block.lang);
