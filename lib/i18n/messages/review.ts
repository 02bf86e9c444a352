// The review queue of upstream purchases whose outcome is unknown.
import { defineMessages } from "../define-messages";

export const review = defineMessages(
  {
    "review.title": "Review queue",
    "review.intro": "Orders whose upstream supplier gave no final answer in time. Check the upstream again, deliver with a payload, or fail and refund.",
    "review.empty": "No orders are waiting for review.",
    "review.purchase": "Upstream purchase",
    "review.connection": "Supplier",
    "review.upstreamOrderId": "Upstream order id",
    "review.upstreamSku": "Upstream SKU id",
    "review.runs": "Attempts",
    "review.lastError": "Last error",
    "review.deadline": "Deadline",
    "review.cost": "Upstream cost",
    "review.noPurchase": "No upstream purchase (nothing was bought upstream).",
    "review.recheck": "Check the upstream again",
    "review.recheckQueued": "Check queued: the order updates when the upstream answers. Reload in a moment.",
  },
  {
    "review.title": "待审核订单",
    "review.intro": "上游供货商未在限定时间内给出最终结果的订单。可以重新查询上游、填写发货内容发货，或标记失败并退款。",
    "review.empty": "没有等待审核的订单。",
    "review.purchase": "上游采购",
    "review.connection": "供货商",
    "review.upstreamOrderId": "上游订单 ID",
    "review.upstreamSku": "上游 SKU ID",
    "review.runs": "尝试次数",
    "review.lastError": "最近错误",
    "review.deadline": "截止时间",
    "review.cost": "上游成本",
    "review.noPurchase": "没有上游采购（未向上游下单）。",
    "review.recheck": "重新查询上游",
    "review.recheckQueued": "已加入查询队列：上游返回结果后订单会更新，请稍后刷新。",
  },
);
