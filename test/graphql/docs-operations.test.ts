import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Kind,
  buildSchema,
  parse,
  specifiedRules,
  validate,
  visit,
  NoUnusedFragmentsRule,
  isObjectType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type ObjectTypeDefinitionNode,
  type ObjectTypeExtensionNode,
} from 'graphql';
import { docBlocks, isScript, type DocBlock } from '../support/doc-blocks';

/**
 * Issue 34, item 3: the guides teach only operations the service accepts. Every GraphQL operation
 * in docs/ is validated against the committed schema (schema/schema.graphql) with graphql-js's
 * own rules, as the service validates it:
 *
 * - every ```graphql block;
 * - in ts/tsx/js blocks, every template literal that holds an operation: tagged (gql`…`,
 *   graphql`…`) or plain (`query: \`subscription Live { … }\``);
 * - in any other block (curl commands, JSON bodies), every JSON `"query": "…"` string.
 *
 * A block is one document. A fragment it spreads but does not define is taken from the other
 * blocks of the same page; a block of fragments alone (as Relay writes them) is not told its
 * fragments are unused. Relay's compile-time directives (@argumentDefinitions, @arguments,
 * @refetchable, @connection, ...) are taken off first: relay-compiler consumes them, and
 * test/clients/relay-compiler.test.ts compiles real ones.
 *
 * The exceptions are marked by an HTML comment above the fence, which the rendered page
 * does not show; keep them few:
 *
 *   <!-- docs-check: sdl -->      the block is schema definition language: it must parse, and
 *                                 every type, field and argument it names must be the schema's
 *   <!-- docs-check: invalid -->  a deliberate wrong example: it must FAIL validation
 */

const schema = buildSchema(
  readFileSync(join(__dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8'),
);

const RELAY_DIRECTIVES = new Set([
  'argumentDefinitions',
  'arguments',
  'refetchable',
  'connection',
  'stream_connection',
  'relay',
  'inline',
  'raw_response_type',
]);

/** The markers that exempt a block from validation; `run <setup>` is docs-client-setups'. */
const EXCEPTIONS: readonly (string | undefined)[] = ['sdl', 'invalid'];
const isException = (block: DocBlock) => EXCEPTIONS.includes(block.marker);

const OPERATION_START = /^\s*(#[^\n]*\n\s*)*(query|mutation|subscription|fragment)\b/;

/** The GraphQL documents of a block, each with where it is. */
function documentsOf(block: DocBlock): { where: string; source: string }[] {
  if (block.lang === 'graphql' || block.lang === 'gql') {
    return [{ where: block.where, source: block.text }];
  }
  const found: { where: string; source: string }[] = [];
  const at = (index: number | undefined) =>
    `${block.where} (+${block.text.slice(0, index).split('\n').length})`;
  if (!isScript(block)) {
    for (const m of block.text.matchAll(/"query"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
      found.push({ where: at(m.index), source: JSON.parse(m[1]!) as string });
    }
    return found;
  }
  for (const m of block.text.matchAll(/(\b(?:gql|graphql)\s*)?`([^`]*)`/g)) {
    const [, tag, source] = m;
    if (!tag && !OPERATION_START.test(source!)) continue;
    found.push({ where: at(m.index), source: source! });
  }
  return found;
}

const withoutRelayDirectives = (doc: DocumentNode): DocumentNode =>
  visit(doc, { Directive: (node) => (RELAY_DIRECTIVES.has(node.name.value) ? null : undefined) });

/** The fragments defined in a page's blocks, by name. */
function fragmentsOfPage(blocks: DocBlock[]): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const block of blocks) {
    if (isException(block)) continue;
    for (const { source } of documentsOf(block)) {
      try {
        for (const def of parse(source).definitions) {
          if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
        }
      } catch {
        // Reported by the block's own test.
      }
    }
  }
  return fragments;
}

/** The document with the fragments it spreads from elsewhere on its page, transitively. */
function withPageFragments(
  doc: DocumentNode,
  page: Map<string, FragmentDefinitionNode>,
): DocumentNode {
  const definitions = [...doc.definitions];
  const defined = new Set(
    definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [d.name.value] : [])),
  );
  for (let i = 0; i < definitions.length; i++) {
    visit(definitions[i]!, {
      FragmentSpread: (spread) => {
        const fragment = page.get(spread.name.value);
        if (fragment && !defined.has(spread.name.value)) {
          defined.add(spread.name.value);
          definitions.push(fragment);
        }
      },
    });
  }
  return { ...doc, definitions };
}

function errorsOf(source: string, page: Map<string, FragmentDefinitionNode>): string[] {
  let doc: DocumentNode;
  try {
    doc = withoutRelayDirectives(parse(source));
  } catch (error) {
    return [(error as Error).message];
  }
  const onlyFragments = doc.definitions.every((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  const rules = onlyFragments
    ? specifiedRules.filter((r) => r !== NoUnusedFragmentsRule)
    : undefined;
  return validate(schema, withPageFragments(doc, page), rules).map((e) => e.message);
}

const blocks = docBlocks();
const pages = new Map<string, Map<string, FragmentDefinitionNode>>();
for (const file of new Set(blocks.map((b) => b.file))) {
  pages.set(file, fragmentsOfPage(blocks.filter((b) => b.file === file)));
}
const documents = blocks.flatMap((block) => documentsOf(block).map((d) => ({ ...d, block })));

test('the guides hold GraphQL operations to check', () => {
  // A change of the extraction that finds nothing would make every other test here pass.
  expect(documents.filter((d) => !isException(d.block)).length).toBeGreaterThan(30);
  expect(documents.some((d) => isScript(d.block))).toBe(true);
});

test('every docs-check marker is one of the known ones', () => {
  const unknown = blocks.filter(
    (b) => b.marker !== undefined && !isException(b) && !/^run \S+$/.test(b.marker),
  );
  expect(unknown.map((b) => `${b.where}: ${b.marker}`)).toEqual([]);
});

test.each(documents.filter((d) => !isException(d.block)).map((d) => [d.where, d] as const))(
  '%s is valid against the schema',
  (_where, { source, block }) => {
    expect(errorsOf(source, pages.get(block.file)!)).toEqual([]);
  },
);

/** The blocks marked as exceptions; test.each refuses an empty table. */
const marked = documents.filter((d) => isException(d.block));

(marked.length > 0 ? test.each : test.skip.each)(marked.map((d) => [d.where, d] as const))(
  '%s, marked, is what its marker says',
  (_where, { source, block }) => {
    if (block.marker === 'invalid') {
      expect(errorsOf(source, pages.get(block.file)!)).not.toEqual([]);
      return;
    }
    // Schema language: every type it names is the schema's, and so is every field it shows.
    const missing: string[] = [];
    visit(parse(source), {
      NamedType: (node) => {
        if (!schema.getType(node.name.value)) missing.push(node.name.value);
      },
      ObjectTypeDefinition: checkFields,
      ObjectTypeExtension: checkFields,
    });
    function checkFields(node: ObjectTypeDefinitionNode | ObjectTypeExtensionNode): void {
      const type = schema.getType(node.name.value);
      if (!isObjectType(type)) return void missing.push(node.name.value);
      for (const field of node.fields ?? []) {
        const real = type.getFields()[field.name.value];
        if (!real) missing.push(`${node.name.value}.${field.name.value}`);
        for (const arg of field.arguments ?? []) {
          if (!real?.args.some((a) => a.name === arg.name.value)) {
            missing.push(`${node.name.value}.${field.name.value}(${arg.name.value}:)`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  },
);
