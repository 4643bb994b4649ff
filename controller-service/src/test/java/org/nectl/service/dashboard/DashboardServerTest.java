package org.nectl.service.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's server is read-only: it serves its five files to GET and HEAD only, refuses a
 * WebSocket from another origin, and ends the session of a browser that sends anything.
 */
final class DashboardServerTest
{
    private static final long TIMEOUT_S = 30;

    private final HttpClient http = HttpClient.newHttpClient();
    private DashboardServer server;

    @BeforeEach
    void start() throws Exception
    {
        server = new DashboardServer(new InetSocketAddress("127.0.0.1", 0));
    }

    @AfterEach
    void stop()
    {
        server.close();
    }

    @Test
    void servesItsFilesToGetAndHeadOnly() throws Exception
    {
        for (final String path : new String[] {"/", "/dashboard.js", "/dashboard.css", "/uPlot.iife.min.js", "/uPlot.min.css"})
        {
            final HttpResponse<String> response = http.send(HttpRequest.newBuilder(server.uri().resolve(path)).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), path);
            assertTrue(response.body().length() > 100, path);
            assertEquals("nosniff", response.headers().firstValue("X-Content-Type-Options").orElse(""), path);
        }
        assertEquals(400, status(HttpRequest.newBuilder(URI.create(server.uri() + "../pom.xml")).build()), "a path leaving the root");
        assertEquals(404, status(HttpRequest.newBuilder(server.uri().resolve("/index.html.bak")).build()));
        assertEquals(405, status(HttpRequest.newBuilder(server.uri()).POST(HttpRequest.BodyPublishers.ofString("enable")).build()));
        assertEquals(405, status(HttpRequest.newBuilder(server.uri()).PUT(HttpRequest.BodyPublishers.ofString("x")).build()));
        assertEquals(200, status(HttpRequest.newBuilder(server.uri()).method("HEAD", HttpRequest.BodyPublishers.noBody()).build()));
    }

    @Test
    void refusesAWebSocketFromAnotherOrigin()
    {
        final ExecutionException refused = assertThrows(ExecutionException.class, () -> http.newWebSocketBuilder()
            .header("Origin", "http://evil.example").buildAsync(stream(), new WebSocket.Listener()
            {
            }).get(TIMEOUT_S, TimeUnit.SECONDS));
        assertTrue(refused.getCause() instanceof WebSocketHandshakeException, refused.toString());
        assertEquals(403, ((WebSocketHandshakeException)refused.getCause()).getResponse().statusCode());
    }

    @Test
    void endsTheSessionOfABrowserThatSendsAnything() throws Exception
    {
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        final WebSocket socket = http.newWebSocketBuilder().header("Origin", "http://" + server.uri().getAuthority())
            .buildAsync(stream(), new WebSocket.Listener()
            {
                @Override
                public CompletionStage<?> onClose(final WebSocket webSocket, final int statusCode, final String reason)
                {
                    closed.complete(statusCode);
                    return null;
                }
            }).get(TIMEOUT_S, TimeUnit.SECONDS);
        socket.sendText("{\"command\":\"enable\"}", true).get(TIMEOUT_S, TimeUnit.SECONDS);
        assertEquals(1008, closed.get(TIMEOUT_S, TimeUnit.SECONDS), "policy violation");
    }

    private URI stream()
    {
        return URI.create("ws://" + server.uri().getAuthority() + DashboardServer.STREAM_PATH);
    }

    private int status(final HttpRequest request) throws Exception
    {
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
