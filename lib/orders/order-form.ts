import { readManualFormSchema } from "../forms/form-schema";
import { formForProduct } from "../forms/normalize-form";
import type { FulfillmentType } from "../generated/prisma/enums";
import type { CreateOrderInput, OrderProfile } from "./order-types";

/**
 * The manual form an order stores (spec 4.5, D33): in Profile P the request's
 * manual_form_data normalised by the product's form schema (throws
 * bad_request when the form does not fit it); in Profile U always {} (the
 * field is reserved there).
 */
export function orderForm({
  profile,
  product,
  input,
}: {
  profile: OrderProfile;
  product: { fulfillmentType: FulfillmentType; manualFormSchema: unknown };
  input: CreateOrderInput;
}): Record<string, unknown> {
  if (profile !== "P") return {};
  return formForProduct(product.fulfillmentType, readManualFormSchema(product.manualFormSchema), input.manualFormData ?? undefined);
}
