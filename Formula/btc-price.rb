# Homebrew formula for btc-price; this repository is its tap:
#   brew tap OWNER/btc-price https://github.com/OWNER/btc-price
#   brew install OWNER/btc-price/btc-price
# It builds a release's source tarball (GitHub's archive of the tag, into which git writes the
# commit: .gitattributes, export-subst) with `swift build -c release`. The release workflow
# (.github/workflows/release.yml) runs `brew install --build-from-source` and `brew test` on
# macOS for each tag; on a new version, bump url and sha256 (the workflow prints the sha256).
class BtcPrice < Formula
  desc "Bitcoin price in the terminal, a status bar or a web page"
  homepage "https://github.com/OWNER/btc-price"
  url "https://github.com/OWNER/btc-price/archive/refs/tags/v0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "Apache-2.0"
  head "https://github.com/OWNER/btc-price.git", branch: "main"

  # Package.swift needs tools 6.2 (Xcode 26) and declares macOS 14.
  depends_on xcode: ["26.0", :build]
  depends_on macos: :sonoma

  uses_from_macos "swift" => :build

  def install
    args = OS.mac? ? ["--disable-sandbox"] : ["--static-swift-stdlib"]
    system "swift", "build", *args, "-c", "release", "--product", "btc-price"
    bin.install ".build/release/btc-price"
    generate_completions_from_executable(bin/"btc-price", "--generate-completion-script")

    # The man page from the command's own definitions: swift-argument-parser's generate-manual
    # (the tool behind its GenerateManual plugin) reads `btc-price --experimental-dump-help`.
    parser = buildpath/".build/checkouts/swift-argument-parser"
    system "swift", "build", *args, "--package-path", parser, "--scratch-path", buildpath/".build/generate-manual",
           "-c", "release", "--product", "generate-manual"
    mkdir "manual"
    system buildpath/".build/generate-manual/release/generate-manual", bin/"btc-price",
           "--section", "1", "--authors", "the btc-price authors", "--output-directory", "manual"
    # The help's blank lines between paragraphs, as mdoc's paragraph breaks (scripts/package too).
    inreplace "manual/btc-price.1", /^$/, ".Pp"
    man1.install "manual/btc-price.1"
  end

  test do
    assert_match(/^#{Regexp.escape(version.to_s)} \(/, shell_output("#{bin}/btc-price --version"))

    # One price from a fake Binance on loopback: the formula's test reaches no exchange.
    require "socket"
    server = TCPServer.new("127.0.0.1", 0)
    port = server.addr[1]
    body = '{"symbol":"BTCUSDT","price":"68901.23000000"}'
    thread = Thread.new do
      client = server.accept
      while (line = client.gets) && line != "\r\n"; end
      client.write "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" \
                   "Content-Length: #{body.bytesize}\r\nConnection: close\r\n\r\n#{body}"
      client.close
    end
    ENV["BTC_PRICE_HISTORY"] = "false"
    output = shell_output("#{bin}/btc-price --once --no-cache --sources binance " \
                          "--binance-url http://127.0.0.1:#{port}/api/v3/ticker/price?symbol=BTCUSDT")
    assert_match "$68,901.23", output
    thread.join

    assert_match "btc-price", (man1/"btc-price.1").read
    assert_path_exists bash_completion/"btc-price"
  end
end
