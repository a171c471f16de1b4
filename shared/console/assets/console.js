// The console's only script (CSP: scripts from /static/ alone). Live updates:
// a job page shows its timeline from WatchJob (server-sent events) and reloads
// when the job moves past the version it was drawn at; a job list reloads
// when one of its jobs moves. Event text goes in as text, never as markup.
"use strict";

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
    const events = new EventSource(`/${body.job}/events`);
    events.onmessage = (message) => {
      const event = JSON.parse(message.data);
      const item = document.createElement("li");
      item.className = `event ${event.type}`;
      const when = document.createElement("time");
      when.textContent = event.time;
      const what = document.createElement("strong");
      what.textContent = event.type;
      const text = document.createElement("span");
      text.textContent = ` ${event.message} → ${event.status}`;
      item.append(when, " ", what, text);
      timeline.append(item);
      if (event.version > drawn) reload();
    };
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
