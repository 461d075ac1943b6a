// Streamed sessions on the node host (the `clawexec.exec-stream` extension, node_client.h).
//
// Problem: a plain system.run answers once, at the end, with at most 200 000 bytes; a long or
// chatty command on a node cannot be followed, written to or backgrounded, and a link that
// drops while it runs loses its answer. Approach: the command runs as an ordinary session of
// the node's exec pipeline; every piece of its (sanitized) output is kept from the last offset
// the gateway confirmed and sent as `clawexec.exec.output {streamId, offset, data}` node
// events, at most kWindow bytes unconfirmed at a time. Above kHighWater bytes unconfirmed the
// command's output is no longer read (it blocks, nothing is dropped) until the gateway's
// confirmations bring it under kLowWater. After a reconnect sending resumes at the last
// confirmed offset; the gateway ignores what it already has. The end, `clawexec.exec.exit`,
// follows the last output. A gateway that answers a stream frame with an error no longer knows
// the session (it restarted, or gave up on it): the command is stopped. So is every streamed
// command when the gateway stays away longer than `detached_limit`.

#include "node/node_client.h"

#include <signal.h>

#include <algorithm>

namespace clawexec::node {
namespace {

constexpr size_t kChunk = 64 * 1024;
constexpr int64_t kWindow = 1 << 20;
constexpr size_t kHighWater = 4u << 20;
constexpr size_t kLowWater = 1u << 20;

// The longest prefix of `text` of at most `max` bytes that does not split a UTF-8 sequence.
size_t utf8_cut(std::string_view text, size_t max) {
  if (text.size() <= max) return text.size();
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return cut == 0 ? max : cut;
}

}  // namespace

void NodeClient::stream_output(const std::shared_ptr<Stream>& stream, std::string_view text) {
  stream->unacked.append(text);
  if (!stream->paused && stream->pending() > kHighWater && stream->run) {
    stream->paused = true;
    stream->run->pause_output(true);
  }
  pump_stream(stream);
}

void NodeClient::pump_stream(const std::shared_ptr<Stream>& stream) {
  if (!live_ || !ws_) return;
  int64_t end = stream->acked + static_cast<int64_t>(stream->pending());
  while (stream->sent < end && stream->sent - stream->acked < kWindow) {
    std::string_view rest = std::string_view(stream->unacked).substr(stream->head + static_cast<size_t>(stream->sent - stream->acked));
    size_t n = utf8_cut(rest, kChunk);
    std::string id = next_request_id();
    json::Object payload{{"streamId", stream->id}, {"offset", stream->sent}, {"data", std::string(rest.substr(0, n))}};
    stream->sent += static_cast<int64_t>(n);
    stream_frames_[id] = StreamFrame{stream->id, stream->sent};
    send_request("node.event", json::Object{{"event", "clawexec.exec.output"}, {"payloadJSON", json::serialize(payload)}}, id);
  }
  if (stream->exit && !stream->exit_sent && stream->sent == end) {
    stream->exit_sent = true;
    std::string id = next_request_id();
    json::Object payload = *stream->exit;
    payload["streamId"] = stream->id;
    payload["offset"] = end;
    stream_frames_[id] = StreamFrame{stream->id, -1};
    send_request("node.event", json::Object{{"event", "clawexec.exec.exit"}, {"payloadJSON", json::serialize(payload)}}, id);
  }
}

void NodeClient::pump_streams() {
  for (auto& [id, stream] : streams_) pump_stream(stream);
}

bool NodeClient::on_stream_response(const std::string& id, const json::Object& frame) {
  auto it = stream_frames_.find(id);
  if (it == stream_frames_.end()) return false;
  StreamFrame sent = it->second;
  stream_frames_.erase(it);
  auto s = streams_.find(sent.stream_id);
  if (s == streams_.end()) return true;
  std::shared_ptr<Stream> stream = s->second;
  const json::Value* ok = json::find(frame, "ok");
  if (!(ok && ok->is_bool() && ok->get_bool())) {
    const json::Object* e = json::object_member(frame, "error");
    drop_stream(stream->id, "the gateway refused its output (" + (e ? json::string_member(*e, "message") : std::string("?")) + ")");
    return true;
  }
  if (sent.end < 0) {  // the exit was taken: the session is the gateway's now
    streams_.erase(stream->id);
    return true;
  }
  if (sent.end > stream->acked) {
    stream->head += static_cast<size_t>(sent.end - stream->acked);
    stream->acked = sent.end;
    if (stream->head * 2 >= stream->unacked.size()) {
      stream->unacked.erase(0, stream->head);
      stream->head = 0;
    }
  }
  if (stream->paused && stream->pending() < kLowWater) {
    stream->paused = false;
    if (stream->run) stream->run->pause_output(false);
  }
  pump_stream(stream);
  return true;
}

void NodeClient::streams_link_down() {
  stream_frames_.clear();
  for (auto& [id, stream] : streams_) {
    stream->sent = stream->acked;  // sent again from there after the reconnect
    stream->exit_sent = false;
  }
  if (streams_.empty() || stopping_ || detached_armed_) return;
  detached_armed_ = true;
  detached_timer_.expires_after(options_.detached_limit);
  std::weak_ptr<NodeClient> weak = weak_from_this();
  detached_timer_.async_wait([weak](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (!self || ec || self->live_) return;
    std::vector<std::string> ids;
    for (const auto& [id, stream] : self->streams_) ids.push_back(id);
    for (const std::string& id : ids) self->drop_stream(id, "the gateway stayed away for " +
                                                                std::to_string(self->options_.detached_limit.count() / 1000) + " s");
  });
}

void NodeClient::drop_stream(const std::string& stream_id, const std::string& why) {
  auto it = streams_.find(stream_id);
  if (it == streams_.end()) return;
  std::shared_ptr<Stream> stream = it->second;
  streams_.erase(it);
  if (stream->run && !stream->run->exited()) {
    if (options_.log) options_.log("streamed session " + stream_id + " stopped: " + why);
    stream->run->pause_output(false);
    stream->run->cancel();
  }
}

void NodeClient::stream_input(const std::string& invoke_id, const json::Object& params) {
  auto it = streams_.find(json::string_member(params, "streamId"));
  if (it == streams_.end() || !it->second->run) {
    return answer_error(invoke_id, "INVALID_REQUEST", "no streamed session " + json::string_member(params, "streamId"));
  }
  std::shared_ptr<exec::Run> run = it->second->run;
  const json::Value* eof = json::find(params, "eof");
  bool close = eof && eof->is_bool() && eof->get_bool();
  std::string data = json::string_member(params, "data");
  if (!run->stdin_writable()) return answer_error(invoke_id, "INVALID_REQUEST", "stdin is not writable");
  std::weak_ptr<NodeClient> weak = weak_from_this();
  auto finish = [weak, invoke_id, run, close](Result<void> r) {
    auto self = weak.lock();
    if (!self) return;
    if (!r.ok()) return self->answer_error(invoke_id, "INVALID_REQUEST", r.error().message);
    if (close) run->close_stdin();
    self->answer(invoke_id, json::Object{{"ok", true}});
  };
  if (data.empty()) return finish(Result<void>());
  run->write_stdin(std::move(data), finish);
}

void NodeClient::stream_kill(const std::string& invoke_id, const json::Object& params) {
  auto it = streams_.find(json::string_member(params, "streamId"));
  if (it == streams_.end() || !it->second->run) {
    return answer_error(invoke_id, "INVALID_REQUEST", "no streamed session " + json::string_member(params, "streamId"));
  }
  int64_t signo = json::integer_member(params, "signal").value_or(SIGTERM);
  if (signo != SIGTERM && signo != SIGKILL && signo != SIGINT && signo != SIGHUP) {
    return answer_error(invoke_id, "INVALID_REQUEST", "clawexec.exec.kill: signal " + std::to_string(signo) + " is not one of TERM, KILL, INT, HUP");
  }
  // A paused command could not act on the signal's consequences (flush, exit) while blocked.
  it->second->paused = false;
  it->second->run->pause_output(false);
  it->second->run->signal_tree(static_cast<int>(signo));
  answer(invoke_id, json::Object{{"ok", true}});
}

}  // namespace clawexec::node
