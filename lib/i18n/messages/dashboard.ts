// The dashboard: today's figures and the chart.
import { defineMessages } from "../define-messages";

export const dashboard = defineMessages(
  {
    "dashboard.perDay": "Orders and sales per day (last 14 days)",
    "dashboard.orders": "Orders",
    "dashboard.ordersLegend": "Orders (at most {max} in a day)",
    "dashboard.sales": "Sales",
    "dashboard.failedJobs": "Failed jobs",
    "dashboard.lowStock": "Low-stock SKUs",
    "dashboard.stock": "Stock",
    "dashboard.noLowStock": "No SKU is low on stock.",
    "dashboard.title": "Dashboard",
    "dashboard.ordersToday": "Orders today",
    "dashboard.salesToday": "Sales today (points)",
    "dashboard.waitingManual": "Waiting for manual fulfillment",
    "dashboard.waitingReview": "Waiting for review",
    "dashboard.failedCallbacks": "Failed callbacks",
    "dashboard.buyers": "Buyers",
  },
  {
    "dashboard.perDay": "每日订单与销售额（最近 14 天）",
    "dashboard.orders": "订单",
    "dashboard.ordersLegend": "订单（单日最多 {max} 笔）",
    "dashboard.sales": "销售额",
    "dashboard.failedJobs": "失败的任务",
    "dashboard.lowStock": "库存不足的 SKU",
    "dashboard.stock": "库存",
    "dashboard.noLowStock": "没有库存不足的 SKU。",
    "dashboard.title": "概览",
    "dashboard.ordersToday": "今日订单",
    "dashboard.salesToday": "今日销售额（积分）",
    "dashboard.waitingManual": "待人工发货",
    "dashboard.waitingReview": "待审核",
    "dashboard.failedCallbacks": "失败的回调",
    "dashboard.buyers": "买家数",
  },
);
