// What the manual and review queues (and the order page) show of an order's
// form: field names only — values need an audited reveal on the order page.

/** The columns both queues select. */
export const queueOrderSelect = {
  id: true,
  orderNo: true,
  downstreamOrderNo: true,
  status: true,
  amountCents: true,
  createdAt: true,
  manualFormData: true,
  user: { select: { email: true } },
  items: { select: { title: true, quantity: true } },
} as const;

/** The names of a stored form's fields, never their values. */
export function formFieldNames(manualFormData: unknown): string[] {
  return manualFormData && typeof manualFormData === "object" && !Array.isArray(manualFormData) ? Object.keys(manualFormData) : [];
}

/** Replaces the stored form of a queue row by its field names. */
export function withFormFieldNames<R extends { manualFormData: unknown }>({ manualFormData, ...row }: R) {
  return { ...row, formFields: formFieldNames(manualFormData) };
}
