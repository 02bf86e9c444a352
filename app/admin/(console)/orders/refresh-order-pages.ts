import { revalidatePath } from "next/cache";

// Not in actions.ts: every export of a "use server" file is an action any
// browser can call, and this one must only run after an authorised change.

/** Every page that lists or shows an open order: the review and manual queues and the order's own page. */
export function refreshOrderPages(orderNo: string) {
  revalidatePath("/admin/review");
  revalidatePath("/admin/manual");
  revalidatePath(`/admin/orders/${orderNo}`);
}
