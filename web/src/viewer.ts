import type { ViewerFieldsFragment } from './api/generated';

/** The signed-in person and their account, as every page receives them. */
export type Viewer = ViewerFieldsFragment;
