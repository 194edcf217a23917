/**
 * Docs that stay true (issue 35, item 6): every repository path the documentation mentions exists,
 * and nothing in the repository cites a document that lives outside it (the contract of the legacy
 * interfaces is the repository's own docs/).
 *
 * Documents: every Markdown file under docs/ and src/ (src/modules/README.md and the layers' own
 * READMEs), README.md and bench/README.md. The run records in bench/results/ are left alone: they
 * describe the tree as it was when they were taken.
 *
 * What counts as a mention of a path (anything else is left alone):
 * - a link target, `[text](target)` or `[label]: target`: it must exist relative to the document's
 *   own directory, as a Markdown viewer resolves it (its `#anchor` is not checked);
 * - an inline code span, a word of the prose, or a word of a fenced block that is one path: names
 *   of letters, digits, `.`, `_`, `-` and `@` joined by `/`, with at least one `/` and either a
 *   file extension, a trailing `/`, or a first name that is a top folder of the repository
 *   (src/, test/, bench/, rest-facade/, docs/, schema/, bin/). In a fenced block (commands,
 *   examples) only words under a top folder count. Such a path may be written from the repository
 *   root, the document's directory, src/, src/modules/, rest-facade/ or a module's folder (the docs
 *   write `http/app.ts` for src/http/app.ts, `projects/project.policy.ts` for the module's file and
 *   `graphql/index.ts` for what each module has); it must exist under one of them;
 * - an inline code span or a word of the prose that is a bare file name with a source extension
 *   (`punch.service.ts`): a file of that name must exist somewhere in the repository;
 * - a layout tree (a fenced block whose first line is a folder, like `src/`): a line indented by at
 *   most eight spaces names entries (before the two-space gap, comma-separated) inside the nearest
 *   less indented folder above it; the rest of the line and deeper lines describe the entry, where
 *   a bare file name must exist under the entry's folder or the folder holding it.
 * Not paths: URLs and absolute paths (`/api/1`, `/graphql`), media types (`text/csv`), globs and
 * placeholders (`*.entity.ts`, `<feature>/`, `:id`, `$DIR`), paths under an environment variable
 * (`DATA_DIR/outbox/`), words in fenced blocks of other languages than commands (a client's own
 * `src/graphql.ts` in a codegen.yml), and what a build or an install makes (dist/, node_modules/).
 *
 * A failure lists every mention that names nothing, as `document:line: mention`.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const TOP_FOLDERS = new Set(['src', 'test', 'bench', 'rest-facade', 'docs', 'schema', 'bin']);
const GENERATED = new Set(['dist', 'node_modules', '.git']);
/** Where a path written without its start may begin, after the document's own directory. */
const BASES = ['', 'src', 'src/modules', 'rest-facade'];
const PATH = /^(?:[\w@-][\w.@-]*|\.\.?)(?:\/(?:[\w@-][\w.@-]*|\.\.))*\/?$/;
const EXTENSION =
  /\.(?:ts|mts|cts|js|cjs|mjs|json|md|graphql|ya?ml|xml|csv|tab|sql|html|txt|png|svg)$/;
const SOURCE_NAME = /^[\w-][\w.-]*\.(?:ts|mts|cjs|mjs|md|graphql)$/;
/** Fenced blocks of commands; the other languages show a client's own files (`src/graphql.ts`). */
const COMMAND_LANGUAGES = new Set(['', 'sh', 'bash', 'shell', 'console', 'text']);
const MEDIA_TYPES = new Set([
  'application',
  'text',
  'image',
  'multipart',
  'font',
  'audio',
  'video',
]);

interface Mention {
  document: string;
  line: number;
  text: string;
}

function walk(dir: string, keep: (relative: string) => boolean, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (GENERATED.has(entry.name)) continue;
    if (entry.isDirectory()) walk(relative, keep, found);
    else if (keep(relative)) found.push(relative);
  }
  return found;
}

function documents(): string[] {
  return [
    ...walk('docs', (file) => file.endsWith('.md')),
    'README.md',
    'bench/README.md',
    ...walk('src', (file) => file.endsWith('.md')),
  ].sort();
}

let names: Set<string> | undefined;
/** Every file name in the repository (built and installed files left out). */
function fileNames(): Set<string> {
  names ??= new Set(walk('', () => true).map((file) => path.posix.basename(file)));
  return names;
}

function exists(relative: string): boolean {
  const full = path.join(ROOT, relative);
  if (!full.startsWith(ROOT)) return false;
  if (!fs.existsSync(full)) return false;
  return relative.endsWith('/') ? fs.statSync(full).isDirectory() : true;
}

function existsUnder(folder: string, name: string): boolean {
  if (!exists(`${folder}/`)) return false;
  return walk(folder, (file) => path.posix.basename(file) === name).length > 0;
}

/** Trims the punctuation a sentence puts around a word. */
function bare(word: string): string {
  return word.replace(/^[("'[{]+/, '').replace(/[)"'\]},;:.!?]+$/, '');
}

function isPathLike(text: string, topOnly: boolean): boolean {
  if (!PATH.test(text) || !text.includes('/')) return false;
  const first = text.split('/')[0]!;
  if (GENERATED.has(first) || MEDIA_TYPES.has(first) || /^[A-Z][A-Z\d_]*$/.test(first))
    return false;
  if (TOP_FOLDERS.has(first)) return true;
  return !topOnly && (EXTENSION.test(text) || text.endsWith('/'));
}

function resolvesFromBases(text: string, document: string): boolean {
  const own = path.posix.dirname(document);
  if (exists(path.posix.normalize(`${own}/${text}`))) return true;
  if (BASES.some((base) => exists(base === '' ? text : `${base}/${text}`))) return true;
  // What every module has, named from inside one (`graphql/index.ts`).
  return fs
    .readdirSync(path.join(ROOT, 'src/modules'), { withFileTypes: true })
    .some((module) => module.isDirectory() && exists(`src/modules/${module.name}/${text}`));
}

function words(line: string): string[] {
  return line
    .split(/[\s`]+/)
    .map(bare)
    .filter((word) => word !== '');
}

/** The entries and descriptions of a layout tree; each mention resolved as the header says. */
function checkTree(document: string, lines: { text: string; line: number }[], missing: Mention[]) {
  const folders: { indent: number; path: string | undefined }[] = [];
  let entryFolder: string | undefined;
  let parentFolder: string | undefined;
  const report = (text: string, line: number) => missing.push({ document, line, text });

  for (const { text, line } of lines) {
    const indent = text.length - text.trimStart().length;
    let description = text;
    if (indent <= 8 && text.trim() !== '') {
      // The names are the leading words joined by commas (`a.ts, b.ts  what they do`).
      const [, list = '', rest = ''] = /^((?:[^\s,]+,\s*)*[^\s,]+)(.*)$/.exec(text.trim()) ?? [];
      description = rest;
      while (folders.length > 0 && folders[folders.length - 1]!.indent >= indent) folders.pop();
      const parent = folders.length > 0 ? folders[folders.length - 1]!.path : '';
      for (const name of list.split(/,\s*/)) {
        const full = parent === undefined || !PATH.test(name) ? undefined : `${parent}${name}`;
        if (full !== undefined && !exists(full)) report(full, line);
        if (name.endsWith('/')) folders.push({ indent, path: full });
        entryFolder = full === undefined ? undefined : full.endsWith('/') ? full : parent;
        parentFolder = parent;
      }
    }
    for (const word of words(description)) {
      if (isPathLike(word, false)) {
        const relative = [entryFolder, parentFolder].some(
          (folder) => folder !== undefined && exists(`${folder}${word}`),
        );
        if (!relative && !resolvesFromBases(word, document)) report(word, line);
      } else if (SOURCE_NAME.test(word) && !word.includes('/')) {
        const folders = [entryFolder, parentFolder].filter((f): f is string => f !== undefined);
        if (folders.length > 0 && !folders.some((f) => existsUnder(f.replace(/\/$/, ''), word))) {
          report(word, line);
        }
      }
    }
  }
}

/** Every mention of a path in one document that names nothing in the repository. */
function missingIn(document: string): Mention[] {
  const missing: Mention[] = [];
  const report = (text: string, line: number) => missing.push({ document, line, text });
  const lines = fs.readFileSync(path.join(ROOT, document), 'utf8').split('\n');
  let fence:
    { marker: string; language: string; lines: { text: string; line: number }[] } | undefined;

  lines.forEach((text, index) => {
    const line = index + 1;
    const opening = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(text);
    if (fence !== undefined) {
      if (opening !== null && text.trim().startsWith(fence.marker)) {
        const [first] = fence.lines.filter((l) => l.text.trim() !== '');
        if (first !== undefined && /^[\w.-]+\/(\s|$)/.test(first.text)) {
          checkTree(document, fence.lines, missing);
        } else if (COMMAND_LANGUAGES.has(fence.language)) {
          for (const l of fence.lines) {
            for (const word of words(l.text)) {
              if (isPathLike(word, true) && !exists(word)) report(word, l.line);
            }
          }
        }
        fence = undefined;
      } else {
        fence.lines.push({ text, line });
      }
      return;
    }
    if (opening !== null) {
      fence = { marker: opening[1]!, language: opening[2]!, lines: [] };
      return;
    }

    let prose = text;
    const links = [
      ...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g),
      ...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g),
    ];
    for (const link of links) {
      prose = prose.replace(link[0], ' ');
      const target = decodeURI(link[1]!.replace(/#.*$/, ''));
      if (target === '' || /^[a-z][\w+.-]*:/i.test(target) || target.startsWith('/')) continue;
      if (!exists(path.posix.normalize(`${path.posix.dirname(document)}/${target}`))) {
        report(target, line);
      }
    }
    for (const span of text.matchAll(/(`+)([^`]+?)\1(?!`)/g)) {
      prose = prose.replace(span[0], ' ');
      const code = span[2]!.trim();
      if (isPathLike(code, false)) {
        if (!resolvesFromBases(code, document)) report(code, line);
      } else if (SOURCE_NAME.test(code) && !fileNames().has(code)) {
        report(code, line);
      }
    }
    for (const word of words(prose.replace(/<[^>]*>/g, ' '))) {
      if (isPathLike(word, false)) {
        if (!resolvesFromBases(word, document)) report(word, line);
      } else if (SOURCE_NAME.test(word) && !fileNames().has(word)) {
        report(word, line);
      }
    }
  });
  return missing;
}

test('every repository path the docs mention exists', () => {
  const missing = documents()
    .flatMap(missingIn)
    .map(({ document, line, text }) => `${document}:${line}: ${text}`);
  expect(missing).toEqual([]);
});

// The names of documents that live outside the repository, assembled here so that this file does
// not cite them itself.
const OUTSIDE = [
  ['..', 'shared'].join('/'),
  ['shared', 'spec'].join('/'),
  ['service', 'interface.md'].join('-'),
  ['behaviour', 'notes.md'].join('-'),
  ['behavior', 'notes.md'].join('-'),
  ['DESIGN', 'md'].join('.'),
  ['ENGINEERING', 'NOTES.md'].join('-'),
  ['', 'work', ''].join('/'),
];
/**
 * The old service's documents by their descriptions. The docs may tell that history (what the
 * legacy interfaces keep, and why); code and tests cite the docs instead.
 */
const OUTSIDE_FOR_CODE = [['interface', 'document'].join(' '), ['behaviour', 'notes'].join(' ')];
const SOURCE_FILE = /\.(?:ts|mts|cts|js|cjs|mjs|md|graphql|ya?ml)$/;

test('nothing cites a document outside the repository', () => {
  const files = [
    ...['src', 'rest-facade', 'test', 'bench', 'docs', 'bin'].flatMap((dir) =>
      walk(dir, (file) => SOURCE_FILE.test(file)),
    ),
    'README.md',
  ];
  const citations = files.flatMap((file) => {
    const phrases = file.endsWith('.md') ? [] : OUTSIDE_FOR_CODE;
    return fs
      .readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((text, index) =>
        [
          ...OUTSIDE.filter((name) => text.includes(name)),
          ...phrases.filter((phrase) => text.toLowerCase().includes(phrase)),
        ].map((name) => `${file}:${index + 1}: ${name}`),
      );
  });
  expect(citations).toEqual([]);
});
