// API keys: create, rotate, disable.
import { defineMessages } from "../define-messages";

export const apiKeys = defineMessages(
  {
    "apiKeys.rotate": "Rotate",
    "apiKeys.rotated": "New key created and the old one disabled. Copy the secret now: it is shown only this once.",
    "apiKeys.title": "API keys",
    "apiKeys.create": "Create an API key",
    "apiKeys.forUser": "Buyer e-mail",
    "apiKeys.key": "API key",
    "apiKeys.secret": "API secret",
    "apiKeys.owner": "Buyer",
    "apiKeys.lastUsed": "Last used",
    "apiKeys.never": "never",
    "apiKeys.active": "Active",
    "apiKeys.disabled": "Disabled",
    "apiKeys.disable": "Disable",
    "apiKeys.disabledDone": "API key disabled.",
    "apiKeys.secretOnce": "Copy the secret now: it is shown only this once and cannot be shown again.",
  },
  {
    "apiKeys.rotate": "轮换",
    "apiKeys.rotated": "已创建新密钥并停用旧密钥。请立即复制密钥：它只显示这一次。",
    "apiKeys.title": "API 密钥",
    "apiKeys.create": "创建 API 密钥",
    "apiKeys.forUser": "买家邮箱",
    "apiKeys.key": "API Key",
    "apiKeys.secret": "API Secret",
    "apiKeys.owner": "买家",
    "apiKeys.lastUsed": "最近使用",
    "apiKeys.never": "从未",
    "apiKeys.active": "启用",
    "apiKeys.disabled": "已停用",
    "apiKeys.disable": "停用",
    "apiKeys.disabledDone": "API 密钥已停用。",
    "apiKeys.secretOnce": "请立即复制密钥：它只显示这一次，之后无法再次查看。",
  },
);
