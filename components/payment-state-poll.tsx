"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Issue 36: the return page of a payment asks for its state every 3 s while
 * the gateway has not confirmed it, and refreshes the page when it changes.
 * It only reads: coming back from the gateway never credits anything.
 */
export function PaymentStatePoll({ paymentNo, state }: { paymentNo: string; state: string }) {
  const router = useRouter();
  useEffect(() => {
    if (state !== "created" && state !== "pending") return;
    let stopped = false;
    const timer = setInterval(() => {
      void fetch(`/portal/api/payments/${encodeURIComponent(paymentNo)}`, { cache: "no-store" })
        .then((res) => (res.ok ? (res.json() as Promise<{ state?: string }>) : null))
        .then((answer) => {
          if (!stopped && answer?.state && answer.state !== state) router.refresh();
        })
        .catch(() => undefined);
    }, 3000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [paymentNo, state, router]);
  return null;
}
