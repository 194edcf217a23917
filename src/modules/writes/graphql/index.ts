/** The GraphQL side of writes: how a payload describes the objects its cascade reached. */
export { cascadeDescriptions } from './cascade-descriptions';
