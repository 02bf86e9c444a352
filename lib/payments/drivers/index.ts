import type { DriverName, PaymentDriver } from "./driver";
import { epayDriver } from "./epay";
import { epusdtDriver } from "./epusdt";
import { stripeDriver } from "./stripe";
import { tokenpayDriver } from "./tokenpay";

/** Every driver by its name (a channel's `driver` column). */
export const DRIVERS: Record<DriverName, PaymentDriver> = {
  epay: epayDriver,
  tokenpay: tokenpayDriver,
  epusdt: epusdtDriver,
  stripe: stripeDriver,
};

export function driverFor(name: DriverName): PaymentDriver {
  return DRIVERS[name];
}
