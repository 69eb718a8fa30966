// The composers' shared look (chat and plug-ins such as the WhatsApp composer).
export const iconButton = 'rounded-full p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:opacity-40';
export const messageBoxClass =
  'max-h-32 min-h-10 min-w-0 flex-1 resize-none rounded-2xl border border-slate-300 bg-white px-3 py-2 text-[15px] focus:border-brand-500 focus:ring-4 focus:ring-brand-500/15 focus:outline-none';
export const sendButtonClass = 'rounded-full bg-brand-600 p-2.5 text-white shadow-sm hover:bg-brand-700 disabled:opacity-40';
