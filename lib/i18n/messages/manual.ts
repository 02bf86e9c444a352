// The manual fulfillment queue (deliver or fail by hand).
import { defineMessages } from "../define-messages";

export const manual = defineMessages(
  {
    "manual.title": "Manual fulfillment",
    "manual.intro": "Orders of manual products (and orders waiting for review) that wait for an administrator.",
    "manual.payload": "Delivery (one item per line)",
    "manual.deliver": "Deliver",
    "manual.delivered": "Order delivered.",
    "manual.failReason": "Reason for failure (shown to the buyer)",
    "manual.fail": "Fail and refund",
    "manual.failed": "Order failed and refunded.",
    "manual.empty": "No orders are waiting.",
  },
  {
    "manual.title": "人工发货",
    "manual.intro": "等待管理员处理的人工商品订单（以及待审核订单）。",
    "manual.payload": "发货内容（每行一项）",
    "manual.deliver": "发货",
    "manual.delivered": "订单已发货。",
    "manual.failReason": "失败原因（会显示给买家）",
    "manual.fail": "标记失败并退款",
    "manual.failed": "订单已标记失败并退款。",
    "manual.empty": "没有等待处理的订单。",
  },
);
