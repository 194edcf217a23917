import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Kind,
  parse,
  print,
  visit,
  type DefinitionNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import type { PreparedOperation } from '../src/graphql/executor';

/** Where the facade's documents live; the build copies them next to the compiled facade. */
export const OPERATIONS_DIR = join(__dirname, 'operations');

/**
 * The named GraphQL operations the facade runs, read and parsed once at start-up. Each operation
 * is prepared as its own text with just the fragments it uses, so Apollo's document cache
 * validates it once and the per-request cost is a cache lookup.
 */
export class OperationRegistry {
  private readonly operations = new Map<string, PreparedOperation>();

  constructor(definitions: readonly DefinitionNode[]) {
    const fragments = new Map<string, FragmentDefinitionNode>();
    const operations: OperationDefinitionNode[] = [];
    for (const definition of definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION)
        fragments.set(definition.name.value, definition);
      else if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
    }
    for (const operation of operations) {
      const name = operation.name?.value;
      if (!name) throw new Error('every facade operation must be named');
      if (this.operations.has(name)) throw new Error(`facade operation ${name} is defined twice`);
      const used = fragmentsUsedBy(operation, fragments);
      this.operations.set(name, {
        name,
        source: [operation, ...used].map((node) => print(node)).join('\n\n'),
      });
    }
  }

  static load(dir = OPERATIONS_DIR): OperationRegistry {
    const files = readdirSync(dir)
      .filter((file) => file.endsWith('.graphql'))
      .sort();
    return new OperationRegistry(
      files.flatMap((file) => parse(readFileSync(join(dir, file), 'utf8')).definitions),
    );
  }

  get(name: string): PreparedOperation {
    const operation = this.operations.get(name);
    if (!operation) throw new Error(`no facade operation named ${name}`);
    return operation;
  }

  names(): string[] {
    return [...this.operations.keys()].sort();
  }
}

function fragmentsUsedBy(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): FragmentDefinitionNode[] {
  const used = new Map<string, FragmentDefinitionNode>();
  const pending: DefinitionNode[] = [operation];
  while (pending.length) {
    visit(pending.pop()!, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (used.has(name)) return;
        const fragment = fragments.get(name);
        if (!fragment) throw new Error(`unknown fragment ${name} in facade operations`);
        used.set(name, fragment);
        pending.push(fragment);
      },
    });
  }
  return [...used.values()].sort((a, b) => a.name.value.localeCompare(b.name.value));
}
