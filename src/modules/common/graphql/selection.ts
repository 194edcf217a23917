import type { FieldNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';

/**
 * The names of the fields selected at a path below the current field (`nodes` of a connection),
 * through fragments and inline fragments. Used to read related rows ahead only when the query
 * asks for them. Directives are not evaluated, so a field under `@skip` counts as selected: the
 * worst case is a batch read that is not rendered.
 */
export function selectedFields(info: GraphQLResolveInfo, ...path: string[]): Set<string> {
  let level: readonly FieldNode[] = info.fieldNodes;
  for (const name of path)
    level = fieldsOf(info, level).filter((field) => field.name.value === name);
  return new Set(fieldsOf(info, level).map((field) => field.name.value));
}

function fieldsOf(info: GraphQLResolveInfo, fields: readonly FieldNode[]): FieldNode[] {
  const out: FieldNode[] = [];
  const visit = (set: SelectionSetNode | undefined): void => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === 'Field') out.push(selection);
      else if (selection.kind === 'InlineFragment') visit(selection.selectionSet);
      else visit(info.fragments[selection.name.value]?.selectionSet);
    }
  };
  for (const field of fields) visit(field.selectionSet);
  return out;
}

/**
 * The fields selected on the nodes of a connection, whether through `nodes` or `edges { node }`:
 * what a page reads ahead for its nodes.
 */
export function selectedNodeFields(info: GraphQLResolveInfo): Set<string> {
  return new Set([...selectedFields(info, 'nodes'), ...selectedFields(info, 'edges', 'node')]);
}
