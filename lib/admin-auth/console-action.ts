// Issue 34.5: what a console server-action file needs, from one import. Every
// actions.ts began with the same five imports (the cache, zod, the action frame,
// its result type and the audit actor); they are named here once.
export { revalidatePath } from "next/cache";
export { z } from "zod";
export { adminActor } from "../audit/actor";
export type { ActionState } from "./action-state";
export { runAdminAction } from "./run-action";
