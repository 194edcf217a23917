import {
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  type FieldNode,
  type FragmentSpreadNode,
  type GraphQLResolveInfo,
  type InlineFragmentNode,
  type SelectionSetNode,
} from 'graphql';
import type { PageRequest } from '../list-query';
import { columnsFor } from './selected-columns';

/**
 * The names of the fields selected at a path below the current field (`nodes` of a connection),
 * through fragments and inline fragments. Used to read related rows ahead only when the query
 * asks for them, and to count a list only when `totalCount` is asked for. `@skip` and `@include`
 * are evaluated as graphql-js does, so `totalCount @include(if: $counted)` counts only when
 * `$counted` is true.
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
      if (!included(info, selection)) continue;
      if (selection.kind === 'Field') out.push(selection);
      else if (selection.kind === 'InlineFragment') visit(selection.selectionSet);
      else visit(info.fragments[selection.name.value]?.selectionSet);
    }
  };
  for (const field of fields) visit(field.selectionSet);
  return out;
}

/** Whether `@skip` and `@include` let a selection through, with the operation's variables. */
function included(
  info: GraphQLResolveInfo,
  node: FieldNode | FragmentSpreadNode | InlineFragmentNode,
): boolean {
  if (!node.directives?.length) return true;
  const skip = getDirectiveValues(GraphQLSkipDirective, node, info.variableValues);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, info.variableValues);
  return include?.if !== false;
}

/**
 * The fields selected on the nodes of a connection, whether through `nodes` or `edges { node }`:
 * what a page reads ahead for its nodes.
 */
export function selectedNodeFields(info: GraphQLResolveInfo): Set<string> {
  return new Set([...selectedFields(info, 'nodes'), ...selectedFields(info, 'edges', 'node')]);
}

/**
 * A list's page request from its arguments, counting the rows only when `totalCount` is selected,
 * with the fields its nodes select.
 */
export function pageRequest(page: PageRequest, info: GraphQLResolveInfo): PageRequest {
  const nodeFields = selectedNodeFields(info);
  return {
    ...page,
    countTotal: selectedFields(info).has('totalCount'),
    nodeFields,
    columnsOf: (metadata, type, also) => columnsFor(metadata, type, nodeFields, also),
  };
}
