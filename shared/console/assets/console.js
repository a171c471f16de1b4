// The console's only script (CSP: scripts from /static/ alone). Live updates:
// a job page shows its timeline from WatchJob (server-sent events) and reloads
// when the job moves past the version it was drawn at; a job list reloads
// when one of its jobs moves. Event text goes in as text, never as markup.
"use strict";

// A table shows a job id's prefix; its copy button puts the whole id on the
// clipboard (or, where the page is not a secure context, shows it to copy).
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button.copy");
  if (!button) return;
  try {
    await navigator.clipboard.writeText(button.dataset.copy);
    button.textContent = "copied";
    setTimeout(() => { button.textContent = "copy"; }, 1500);
  } catch (_) {
    window.prompt("The job id", button.dataset.copy);
  }
});

// Cancelling many jobs at once is asked twice.
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form.bulk-cancel");
  if (form && !window.confirm(`Cancel ${form.dataset.count} jobs?`)) event.preventDefault();
});

document.addEventListener("DOMContentLoaded", () => {
  const body = document.body.dataset;
  let reloading = false;
  const reload = () => {
    if (!reloading) {
      reloading = true;
      // A form being filled in is not thrown away.
      if (document.activeElement && document.activeElement.form) {
        reloading = false;
        return;
      }
      setTimeout(() => location.reload(), 150);
    }
  };

  if (body.page === "job") {
    const timeline = document.getElementById("timeline");
    const drawn = Number(body.version);
    let previous = null;
    const since = (ms) => {
      if (previous === null || !ms) return "";
      const gap = Math.max(0, ms - previous);
      return gap < 1000 ? `+${gap} ms` : `+${(gap / 1000).toFixed(1)} s`;
    };
    const events = new EventSource(`/${body.job}/events`);
    events.onmessage = (message) => {
      const event = JSON.parse(message.data);
      const item = document.createElement("li");
      item.className = `event ${event.type}`;
      const when = document.createElement("time");
      when.textContent = event.time;
      const gap = document.createElement("span");
      gap.className = "gap";
      gap.textContent = since(event.at_ms);
      if (event.at_ms) previous = event.at_ms;
      const what = document.createElement("strong");
      what.textContent = event.type;
      const text = document.createElement("span");
      text.textContent = ` ${event.message} → ${event.status}`;
      item.append(when, " ", gap, " ", what, text);
      if (event.by) {
        const who = document.createElement("span");
        who.className = "by";
        who.textContent = ` by ${event.by}`;
        item.append(who);
      }
      if (event.payload && Object.keys(event.payload).length > 0) {
        const details = document.createElement("details");
        const summary = document.createElement("summary");
        summary.textContent = "payload";
        const pre = document.createElement("pre");
        pre.className = "json payload";
        pre.textContent = JSON.stringify(event.payload, null, 2);
        details.append(summary, pre);
        item.append(details);
      }
      timeline.append(item);
      if (event.version > drawn) reload();
    };
  }

  // The jobs across skills: a new first job (or a change to it) reloads the
  // first page; an older page stays as it is.
  if (body.page === "all-jobs" && body.follow === "true") {
    const poll = async () => {
      try {
        const response = await fetch(`/jobs/head?${body.query}`, { credentials: "same-origin" });
        if (response.ok) {
          const { head } = await response.json();
          if (head !== body.head) reload();
        }
      } catch (_) {
        // The next poll tries again.
      }
    };
    setInterval(poll, 1500);
  }

  if (body.page === "jobs" && body.watch) {
    const versions = new Map();
    for (const row of document.querySelectorAll("tr[data-job]")) {
      versions.set(`skills/${body.slag}/jobs/${row.dataset.job}`, Number(row.dataset.version));
    }
    const events = new EventSource(`/skills/${body.slag}/jobs/events?ids=${encodeURIComponent(body.watch)}`);
    events.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (event.version > (versions.get(event.job) ?? Infinity)) reload();
    };
  }
});
