// What is wrong with a form field, as a sentence after the field's label
// (issue 35.2): made from the zod issue's code, never from a field's name.
import { defineMessages } from "../define-messages";

export const formErrors = defineMessages(
  {
    "form.required": "please fill this in.",
    "form.tooShort": "at least {n} characters, please.",
    "form.tooLong": "at most {n} characters, please.",
    "form.tooSmall": "must be at least {n}.",
    "form.tooBig": "must be at most {n}.",
    "form.notANumber": "must be a number.",
    "form.badFormat": "this is not a valid value here.",
    "form.badChoice": "please choose one of the offered values.",
    "form.invalid": "this value is not accepted.",
    "form.passwordsDiffer": "the two new passwords are not the same.",
    "form.rejectionNeedsReason": "a rejection needs a reason.",
    "form.linesOrAmount": "give either lines or an amount.",
    "form.amount": "must be an amount with at most two decimals, like 10.00.",
    "form.notZero": "must not be zero.",
    "form.httpUrl": "must be an http:// or https:// address.",
    "form.plainHttpUrl": "must be an http or https address without a user name, query or fragment.",
  },
  {
    "form.required": "请填写此项。",
    "form.tooShort": "请至少填写 {n} 个字符。",
    "form.tooLong": "最多 {n} 个字符。",
    "form.tooSmall": "不能小于 {n}。",
    "form.tooBig": "不能大于 {n}。",
    "form.notANumber": "请填写数字。",
    "form.badFormat": "格式不正确。",
    "form.badChoice": "请从给出的选项中选择。",
    "form.invalid": "填写的内容无效。",
    "form.passwordsDiffer": "两次输入的新密码不一致。",
    "form.rejectionNeedsReason": "拒绝时请填写原因。",
    "form.linesOrAmount": "请填写行号或金额，二者选一。",
    "form.amount": "请填写最多两位小数的金额，例如 10.00。",
    "form.notZero": "不能为零。",
    "form.httpUrl": "请填写以 http:// 或 https:// 开头的地址。",
    "form.plainHttpUrl": "必须是不含用户名、查询参数或片段的 http 或 https 地址。",
  },
);
