import { listStatement } from "../../points/list-statement";
import { ENDPOINTS } from "../../protocol/endpoints";
import { defineEndpoint } from "../define-endpoint";
import { statementWire } from "../../serializers/statement";

/**
 * Extension (docs/decisions/0019-balance-statement.md): the points ledger of
 * the API key's own user, newest first, paged like the products list (D10).
 * The user comes from the credential, never from the request.
 */
export const getStatementEndpoint = defineEndpoint({
  ...ENDPOINTS.getStatement,
  handler: async (ctx) => {
    const { page, page_size, from, to } = ctx.query;
    const statement = await listStatement({ userId: ctx.credential.userId, page, pageSize: page_size, from, to });
    return statementWire(statement, page, page_size);
  },
});
