// ACG-Faka's error answer is HTTP 200 {"code":0,"msg":"…"} (their
// kernel/Kernel.php lines 186-188); their client shows `msg` to its operator
// (app/Service/Bind/Shared.php line 95). One type for every refusal of the
// /acg edge, its message public: never a secret, a signature or a card key.

export class AcgRefusal extends Error {
  override name = "AcgRefusal";
}

export const refuse = (message: string) => new AcgRefusal(message);
