/**
 * Reads compiled to SQL (docs/architecture.md, "Compiled reads"): a query's root lists whose
 * selection the declarations cover are answered by one statement each, in which PostgreSQL writes
 * the field's JSON; the executor answers the rest. graphql/jit-gateway.ts wraps each operation's
 * runner with it, and graphql/schema.ts registers the lists the modules name.
 */
export {
  counts as compiledReadCounts,
  registerCompiledLists,
  withCompiledReads,
  type Runner,
} from './compiled-runner';
