// See peer.h. Our request ids are always strings, so a response whose id is not a string is
// never one of ours.

#include "rpc/peer.h"

#include <utility>

namespace clawexec::rpc {

Peer::Peer(std::string peer_name, std::string id_prefix, Handlers handlers)
    : peer_name_(std::move(peer_name)), handlers_(std::move(handlers)), requests_(std::move(id_prefix)) {
  requests_.set_closed_reason("the connection closed before " + peer_name_ + " answered");
}

void Peer::receive(std::string_view line, const Channel& reply) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;  // blank keep-alive lines
  Incoming in = parse_message(line);
  switch (in.kind) {
    case Incoming::Kind::kInvalid:
      reply(make_error(in.id, in.error_code, in.error_message));
      return;
    case Incoming::Kind::kResponse: {
      if (!in.id.is_string()) return;  // not ours
      std::string id(in.id.get_string());
      if (!in.error.is_null()) {
        const json::Value* message = in.error.is_object() ? json::find(in.error.get_object(), "message") : nullptr;
        std::string text =
            message && message->is_string() ? std::string(message->get_string()) : json::serialize(in.error);
        requests_.settle(id, Error::rejected(text));
        return;
      }
      requests_.settle(id, std::move(in.result));
      return;
    }
    case Incoming::Kind::kNotification:
      if (handlers_.notification) handlers_.notification(in.method, in.params);
      return;
    case Incoming::Kind::kRequest:
      if (handlers_.request) handlers_.request(in.id, in.method, in.params, reply);
      return;
  }
}

void Peer::request(const Channel& channel, std::string_view method, json::Object params, Correlator::Done done) {
  std::string what = std::string(method) + ": " + peer_name_;
  std::string id = requests_.expect([what, done = std::move(done)](Result<json::Value> answer) {
    if (answer.ok() || answer.error().code != ErrorCode::kRejected) return done(std::move(answer));
    done(Error::rejected(what + " answered with an error: " + answer.error().message));
  });
  channel(make_request(json::Value(boost::json::string(id)), method, std::move(params)));
}

void Peer::close(const std::string& reason) { requests_.fail_all(Error{ErrorCode::kCancelled, 0, reason}); }

}  // namespace clawexec::rpc
