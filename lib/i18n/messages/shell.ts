// The console frame: its title and the navigation menu.
import { defineMessages } from "../define-messages";

export const shell = defineMessages(
  {
    "app.title": "Admin console",

    "nav.catalog": "Catalogue",
    "nav.password": "Password",
    "nav.review": "Review queue",
    "nav.upstream": "Upstream suppliers",
    "nav.jobs": "Callbacks & jobs",
    "nav.dashboard": "Dashboard",
    "nav.orders": "Orders",
    "nav.manual": "Manual fulfillment",
    "nav.buyers": "Buyers & points",
    "nav.apiKeys": "API keys",
    "nav.settings": "Settings",
    "nav.audit": "Audit log",
    "nav.security": "Two-factor",
    "nav.apiReference": "API reference",
    "nav.menu": "Menu",
    "nav.signOut": "Sign out",
    "nav.language": "Language",
    "nav.signedInAs": "Signed in as {email}",
  },
  {
    "app.title": "管理后台",

    "nav.catalog": "商品目录",
    "nav.password": "密码",
    "nav.review": "待审核订单",
    "nav.upstream": "上游供货商",
    "nav.jobs": "回调与任务",
    "nav.dashboard": "概览",
    "nav.orders": "订单",
    "nav.manual": "人工发货",
    "nav.buyers": "买家与积分",
    "nav.apiKeys": "API 密钥",
    "nav.settings": "设置",
    "nav.audit": "审计日志",
    "nav.security": "两步验证",
    "nav.apiReference": "API 参考",
    "nav.menu": "菜单",
    "nav.signOut": "退出登录",
    "nav.language": "语言",
    "nav.signedInAs": "当前登录：{email}",
  },
);
