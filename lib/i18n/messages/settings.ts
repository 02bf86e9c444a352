// The settings page.
import { defineMessages } from "../define-messages";

export const settings = defineMessages(
  {
    "settings.title": "Settings",
    "settings.siteName": "Site name",
    "settings.publicBaseUrl": "Public base URL",
    "settings.publicBaseUrlHelp": "Used to build absolute image URLs (http or https, no trailing path query).",
    "settings.imageExposure": "Expose product images",
    "settings.imageExposureNote": "Affects the supplier API only (logo and images in API responses), not the storefront.",
    "settings.pointsDebit": "Debit points for orders",
    "settings.pointsDebitNote": "When off, orders are placed without taking points from the buyer's balance.",
    "settings.rateLimitPerKey": "Rate limit per API key (requests/minute)",
    "settings.rateLimitPerIp": "Rate limit per IP (requests/minute)",
    "settings.language": "Language of operator alerts",
    "settings.noMail":
      "No e-mail channel is set up, so no e-mail can be sent: invitations are not mailed (pass their links on yourself), and a buyer who forgot a password is told to contact you.",
    "settings.noMailAction": "Add an e-mail channel",
  },
  {
    "settings.title": "设置",
    "settings.siteName": "站点名称",
    "settings.publicBaseUrl": "公开访问地址",
    "settings.publicBaseUrlHelp": "用于生成图片的完整地址（http 或 https，不含查询参数）。",
    "settings.imageExposure": "公开商品图片",
    "settings.imageExposureNote": "只影响供货 API（接口返回的 logo 和图片），不影响前台商城。",
    "settings.pointsDebit": "下单扣除积分",
    "settings.pointsDebitNote": "关闭后，下单不会从买家余额中扣除积分。",
    "settings.rateLimitPerKey": "每个 API 密钥的限流（次/分钟）",
    "settings.rateLimitPerIp": "每个 IP 的限流（次/分钟）",
    "settings.language": "运维告警的语言",
    "settings.noMail": "尚未设置邮件渠道，无法发送任何邮件：邀请不会通过邮件发出（请自行转交邀请链接），忘记密码的采购商会被告知联系您。",
    "settings.noMailAction": "添加邮件渠道",
  },
);
